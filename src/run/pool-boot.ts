// The run's pool, booted as soon as the benchmark is loaded: its workers load the
// harness, the agent and the sandbox provider while this thread checks the run (the sandbox
// engine, the image, the model) and makes its folder; run-trials.ts then hands them the run.
// Booted after those steps, the pool was most of a one-sample run's time to its first trial.
// A job boots one for all its cells as soon as each is loaded, before any is checked (job.ts).
import { bootFor } from '../pool/index.ts';
import type { BootingPool, PoolBoot, PoolMode } from '../pool/types.ts';
import type { SandboxSpec } from '../sandbox/types.ts';
import type { Benchmark, Samples } from '../benchmark/types.ts';
import type { Cleanup } from './cleanup.ts';
import { jobLayout, type Layout } from './layout.ts';

export interface RunPool {
  booting: BootingPool;
  /** Closes it now and takes it off the cleanup stack (the run's trials are over). */
  close: () => Promise<void>;
}

/** What a run's (or a job cell's) pool boots with, from its loaded benchmark (prepare.ts loadRun). */
interface Loaded {
  benchmark: Benchmark<Samples>;
  agentRef: { name: string; module?: string };
  sandbox: SandboxSpec | null;
  layout: Layout;
}

export function bootRunPool(
  benchmark: Benchmark<Samples>,
  agent: { name: string; module?: string },
  sandbox: SandboxSpec | null,
  layout: Layout,
  cleanup: Cleanup,
): RunPool {
  return boot(benchmark.config.run.mode, { agents: [agent], sandbox }, layout, trialsOf(benchmark), cleanup);
}

/**
 * A job's one pool (job-trials.ts): in the first cell's mode, every cell's agent loaded, the layout of
 * the cell that needs the most workers (layout.ts jobLayout), the job's trials all told.
 */
export function bootJobPool(cells: Loaded[], cleanup: Cleanup): RunPool & { layout: Layout } {
  const first = cells[0];
  const layout = jobLayout(cells.map((c) => c.layout)) ?? first.layout;
  const trials = cells.reduce((n, c) => n + trialsOf(c.benchmark), 0);
  const sandbox = cells.find((c) => c.sandbox)?.sandbox ?? null;
  const agents = cells.map((c) => c.agentRef);
  return { ...boot(first.benchmark.config.run.mode, { agents, sandbox }, layout, trials, cleanup), layout };
}

function boot(mode: PoolMode, what: PoolBoot, layout: Layout, trials: number, cleanup: Cleanup): RunPool {
  const booting = bootFor(mode)(what, {
    workers: workersFor(layout.workers, layout.per_worker, trials),
    perWorker: layout.per_worker,
  });
  return { booting, close: cleanup.defer('the pool', () => booting.close()) };
}

const trialsOf = (b: Benchmark<Samples>): number => b.samples.length * b.config.n_trials;

/** No worker that no trial can reach: a one-sample run starts one, not --workers (each is a Node process or thread to boot). */
const workersFor = (workers: number, perWorker: number, trials: number): number =>
  Math.max(1, Math.min(workers, Math.ceil(trials / perWorker)));
