// Which table of prices a run priced its calls with (run.json `prices`, docs/reports.md#runjson), read
// from the package's package.json without loading the table: the main thread records it but prices
// nothing; the table (a large module) is loaded by the threads that price calls (prices.ts).
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
