// Which table of prices a run priced its calls with (run.json `prices`, docs/reports.md#runjson): read
// from the package's package.json, without loading the table itself. The main thread of a run records
// it but prices nothing; the table (a ~1.7 MB module, ~3 MB of heap once loaded) is loaded by the
// threads that price calls (prices.ts), not here (docs/performance.md).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What run.json records of the table (docs/reports.md#runjson). */
export const PRICE_TABLE: { name: string; version: string } = {
  name: '@pydantic/genai-prices',
  version: tableVersion(),
};

function tableVersion(): string {
  try {
    const entry = fileURLToPath(import.meta.resolve('@pydantic/genai-prices'));
    const pkg = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}
