// Shared by the models-* e2e files: the fake credentials, and a scan of every output file for them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TrajectoryEvent } from '../../src/types.ts';

export const SECRET = 'sk-test-SECRET-9f3c1e7a5b';
export const MODEL = 'fake-model-1';

export const modelEnv = (baseUrl: string) => ({
  OPENAI_BASE_URL: baseUrl,
  OPENAI_API_KEY: SECRET,
  BENCHRIG_MODEL: MODEL,
});

/** Every file under `dir` (recursively) whose bytes contain `needle`. */
export function filesContaining(dir: string, needle: string): string[] {
  const hits: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (readFileSync(p).includes(needle)) hits.push(p);
    }
  };
  walk(dir);
  return hits;
}

/** Events without what differs between two runs of the same trial (time, latency). */
export const stable = (events: (TrajectoryEvent & { latency_ms?: number })[]) =>
  events.map(({ ts: _t, latency_ms: _l, ...e }) => e);
