// Fixture SWE-bench rows and logs (test/fixtures/swebench/).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SWEBENCH_FIXTURES = fileURLToPath(new URL('../../../fixtures/swebench/', import.meta.url));
export const fixtureText = (rel: string): string => readFileSync(SWEBENCH_FIXTURES + rel, 'utf8');
export const fixtureRows = (): Array<Record<string, unknown>> =>
  fixtureText('rows.jsonl')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
export const statusOf = (map: Map<string, string>): Record<string, string> => Object.fromEntries(map);
