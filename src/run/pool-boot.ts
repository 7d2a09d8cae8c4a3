// The run's pool, booted as soon as the benchmark is loaded: its workers load the
// harness, the agent and the sandbox provider while this thread checks the run (the sandbox
// engine, the image, the model) and makes its folder; run-trials.ts then hands them the run.
// Booted after those steps, the pool was most of a one-sample run's time to its first trial.
import { bootFor } from '../pool/index.ts';
import type { BootingPool } from '../pool/types.ts';
import type { SandboxSpec } from '../sandbox/types.ts';
import type { Benchmark, Samples } from '../benchmark/types.ts';
import type { Cleanup } from './cleanup.ts';
import type { Layout } from './layout.ts';

export interface RunPool {
  booting: BootingPool;
  /** Closes it now and takes it off the cleanup stack (the run's trials are over). */
  close: () => Promise<void>;
}

export function bootRunPool(
  benchmark: Benchmark<Samples>,
  agent: { name: string; module?: string },
  sandbox: SandboxSpec | null,
  layout: Layout,
  cleanup: Cleanup,
): RunPool {
  const trials = benchmark.samples.length * benchmark.config.n_trials;
  const booting = bootFor(benchmark.config.run.mode)(
    { agents: [agent], sandbox },
    { workers: workersFor(layout.workers, layout.per_worker, trials), perWorker: layout.per_worker },
  );
  return { booting, close: cleanup.defer('the pool', () => booting.close()) };
}

/** No worker that no trial can reach: a one-sample run starts one, not --workers (each is a Node process or thread to boot). */
const workersFor = (workers: number, perWorker: number, trials: number): number =>
  Math.max(1, Math.min(workers, Math.ceil(trials / perWorker)));
