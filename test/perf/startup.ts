// `time_to_first_trial_ms` (issue 41): `benchrig run` of a one-sample benchmark from a cold process
// to its first trial. "First trial" is the first trial's first model request reaching the loopback
// model: by then the CLI has loaded, the run is checked, its folder made, the pool booted and the
// trial's agent started. Both ends are timed in this process (spawn → request), nothing inside
// benchrig is instrumented. The CLI as a user types it: `--agent react`, the default layout.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startModelServer } from '../support/model-server.ts';

const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export interface StartupSizes {
  /** Counted runs (one warm-up run before them compiles the CLI into the module cache). */
  runs: number;
}

export interface StartupRow {
  value: number;
  raw: Record<string, unknown>;
}

/** A one-sample benchmark with a `contains` check, in `root`. */
function oneSampleBenchmark(root: string): string {
  const dir = join(root, 'benchmarks', 'perf-one-sample');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'data.jsonl'), JSON.stringify({ id: 's1', input: 'ping', expected: 'pong' }) + '\n');
  writeFileSync(
    join(dir, 'benchmark.toml'),
    'name = "perf-one-sample"\n[dataset]\nsource = "data.jsonl"\n[[checks]]\ntype = "contains"\nname = "answered"\n',
  );
  return dir;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export async function timeToFirstTrial(
  root: string,
  z: StartupSizes,
  say: (line: string) => void,
): Promise<StartupRow> {
  const work = mkdtempSync(join(root, 'startup-'));
  const bench = oneSampleBenchmark(work);
  let firstAt = 0;
  const model = await startModelServer(() => {
    if (!firstAt) firstAt = performance.now();
    return { content: 'pong' };
  });
  const one = async (): Promise<{ first_ms: number; wall_ms: number }> => {
    firstAt = 0;
    const t0 = performance.now();
    const child = spawn(
      process.execPath,
      [join(REPO, 'bin/benchrig.mjs'), 'run', bench, '--agent', 'react', '--output', join(work, 'evals')],
      {
        cwd: work,
        stdio: ['ignore', 'ignore', 'pipe'],
        env: {
          ...process.env,
          NO_COLOR: '1',
          OPENAI_BASE_URL: model.url,
          OPENAI_API_KEY: 'sk-perf',
          BENCHRIG_MODEL: 'perf-model',
        },
      },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
    const code = await new Promise<number | null>((ok) => child.on('exit', ok));
    const wall = performance.now() - t0;
    if (code !== 0 || !firstAt) throw new Error(`benchrig run (one sample) exited ${code}: ${stderr.slice(-2000)}`);
    return { first_ms: firstAt - t0, wall_ms: wall };
  };
  try {
    await one(); // warm-up: the CLI compiled into the module cache, the files in the page cache
    const runs: Array<{ first_ms: number; wall_ms: number }> = [];
    for (let i = 0; i < z.runs; i++) runs.push(await one());
    const firsts = runs.map((r) => Math.round(r.first_ms));
    say(`  time to first trial: ${firsts.join(', ')} ms`);
    return {
      value: median(runs.map((r) => r.first_ms)),
      raw: {
        runs: z.runs,
        first_trial_ms: firsts,
        wall_ms: runs.map((r) => Math.round(r.wall_ms)),
        command: 'benchrig run <one sample> --agent react (default mode and workers), instant loopback model',
        measured:
          "spawn of the CLI → the first trial's first model request at the model (median of the runs; one warm-up run first)",
      },
    };
  } finally {
    await model.close();
    rmSync(work, { recursive: true, force: true });
  }
}
