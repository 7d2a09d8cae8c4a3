// Drives a pool the way the orchestrator does, on a fixture benchmark, with pool options the CLI
// does not expose (short grace periods, a small worker heap) so that crash tests stay quick.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadBenchmark } from '../../../src/benchmark/load.ts';
import type { PoolMode } from '../../../src/pool/types.ts';
import { POOLS } from '../../../src/pool/index.ts';
import type { RemotePoolOptions } from '../../../src/pool/remote.ts';
import { schedule } from '../../../src/pool/scheduler.ts';
import { expandTrials } from '../../../src/run/trials.ts';
import type { RunContext, TrialHooks, TrialInput, TrialSummary } from '../../../src/trial/types.ts';
import type { TrialResult } from '../../../src/types.ts';
import { FIXTURES, readJson, tempDir } from '../../support/cli.ts';
import { testRunId } from '../../support/docker.ts';

export const agentPath = (name: string) => join(FIXTURES, 'agents', `${name}.ts`);

export interface PoolRun {
  run: RunContext;
  results: Record<string, TrialSummary>;
  /** The saved result file of a task, or undefined when none was written. */
  saved(taskId: string): TrialResult | undefined;
  ms: number;
}

export async function runOnPool(o: {
  mode: PoolMode;
  bench: 'pool-local' | 'pool-sandbox';
  agent: string;
  samples: string[];
  pool?: Partial<RemotePoolOptions>;
  flags?: Record<string, unknown>;
  agentOptions?: Record<string, unknown>;
  signal?: AbortSignal;
  hooks?: TrialHooks | ((trial: TrialInput) => TrialHooks);
  onStart?: () => void;
  runId?: string;
  transcripts?: RunContext['transcripts'];
}): Promise<PoolRun> {
  const b = await loadBenchmark(join(FIXTURES, 'benchmarks', o.bench), { flags: o.flags, sample: o.samples });
  const runDir = tempDir('benchrig-pool-');
  const run: RunContext = {
    runId: o.runId ?? testRunId(o.mode),
    runDir,
    harnessPid: process.pid,
    benchmark: {
      name: b.name,
      dir: b.dir,
      version: b.version,
      checks: b.checks,
      hooks: b.hooks,
      blocksAreSuccess: b.config.blocks_are_success,
    },
    agent: { name: o.agent, id: o.agent, module: agentPath(o.agent), options: o.agentOptions ?? {} },
    user: b.config.user,
    llm: { agent: b.config.llm, user: b.config.llm, judge: b.config.llm },
    limits: b.config.limits,
    sandbox: b.config.sandbox
      ? {
          image: b.config.sandbox.image,
          build: b.config.sandbox.build,
          workdir: b.config.sandbox.workdir,
          network: b.config.sandbox.network,
          memory: b.config.sandbox.memory,
          cpus: b.config.sandbox.cpus,
          pids: b.config.sandbox.pids,
          setup: b.config.sandbox.setup,
          capAdd: b.config.sandbox.cap_add,
          shared: null,
          execTimeoutMs: b.config.limits.exec_timeout_s * 1000,
          maxOutputBytes: b.config.limits.max_output_bytes,
        }
      : null,
    grading: { isolation: 'same', outputs: [] },
    keepSandbox: false,
    llmCache: { mode: 'off', dir: join(runDir, '.llm-cache') },
    ...(o.transcripts ? { transcripts: o.transcripts } : {}),
  };
  const pool = await POOLS[o.mode](run, { workers: 1, perWorker: 1, graceMs: 1000, ...o.pool });
  const results: Record<string, TrialSummary> = {};
  const t0 = performance.now();
  try {
    await schedule(pool, expandTrials(b.samples, 1), {
      signal: o.signal ?? new AbortController().signal,
      hooks: o.hooks,
      onStart: o.onStart,
      onResult: (r) => (results[r.task_id] = r),
    });
  } finally {
    await pool.close();
  }
  const ms = performance.now() - t0;
  const saved = (id: string) => {
    const file = join(runDir, 'results', `${id}.json`);
    return existsSync(file) ? readJson<TrialResult>(file) : undefined;
  };
  return { run, results, saved, ms };
}
