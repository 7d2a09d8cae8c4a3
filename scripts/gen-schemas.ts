// Regenerates schemas/*.json from the zod definitions the code validates with (src/report/schema.ts).
// `npm run schemas`; a test fails when the committed files differ from what this writes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jsonSchemas } from '../src/report/schema.ts';

const dir = fileURLToPath(new URL('../schemas/', import.meta.url));
for (const [file, schema] of Object.entries(jsonSchemas())) {
  writeFileSync(join(dir, file), `${JSON.stringify(schema, null, 2)}\n`);
  process.stdout.write(`wrote schemas/${file}\n`);
}
