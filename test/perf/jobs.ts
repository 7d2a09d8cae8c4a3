// `job_vs_separate_wall` (issue #39): a job of 2 agents × 2 models over `samples` one-call samples
// against a model of `latencyMs`, through the CLI (`benchrig run job.toml`), over the wall time of the
// same four runs one after the other (`benchrig run B --agent A --model M` × 4). The job shares one
// pool: one start, and no pool draining at the end of each cell (docs/performance.md).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const POOL = ['--mode', 'threads', '--workers', '2', '--per-worker', '4'];

export interface JobSizes {
  samples: number;
}

export interface JobVsSeparate {
  value: number;
  raw: Record<string, unknown>;
}

function cli(args: string[], cwd: string, modelUrl: string): Promise<number> {
  const env = { ...process.env, NO_COLOR: '1', OPENAI_BASE_URL: modelUrl, OPENAI_API_KEY: 'sk-perf' };
  const t0 = performance.now();
  return new Promise((ok, fail) => {
    execFile(
      process.execPath,
      [join(REPO, 'bin/benchrig.mjs'), ...args],
      { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 },
      (err, _out, stderr) =>
        err ? fail(new Error(`benchrig ${args[0]} failed: ${stderr.slice(-2000)}`)) : ok(performance.now() - t0),
    ).stdin?.end();
  });
}

export async function jobVsSeparate(
  root: string,
  benchmark: string,
  agent: string,
  modelUrl: string,
  say: (line: string) => void,
): Promise<JobVsSeparate> {
  const work = mkdtempSync(join(root, 'jobs-'));
  try {
    const cells = ['a1', 'a2'].flatMap((id) => ['m1', 'm2'].map((model) => ({ id, model })));
    let separateMs = 0;
    for (const c of cells)
      separateMs += await cli(
        [
          'run',
          benchmark,
          '--agent',
          agent,
          '--agent-id',
          c.id,
          '--model',
          c.model,
          '--output',
          join(work, 'separate'),
          ...POOL,
        ],
        work,
        modelUrl,
      );
    const file = join(work, 'job.toml');
    writeFileSync(
      file,
      `benchmarks = [${JSON.stringify(benchmark)}]\n` +
        ['a1', 'a2'].map((id) => `[[agents]]\nname = ${JSON.stringify(agent)}\nid = "${id}"\n`).join('') +
        ['m1', 'm2'].map((m) => `[[models]]\nname = "${m}"\n`).join(''),
    );
    const jobMs = await cli(['run', file, '--output', join(work, 'job'), ...POOL], work, modelUrl);
    const value = jobMs / separateMs;
    say(`  job ${Math.round(jobMs)} ms vs four runs ${Math.round(separateMs)} ms: ${value.toFixed(2)}`);
    return {
      value,
      raw: {
        job_wall_ms: Math.round(jobMs),
        separate_wall_ms: Math.round(separateMs),
        command: `benchrig run job.toml (2 agents × 2 models) ${POOL.join(' ')} vs the four runs one after the other`,
      },
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
