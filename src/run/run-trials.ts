// A run's third step: what the trials share (the shared volume, the benchmark's prepareShared), the
// pool, every trial scheduled on it (pool/scheduler.ts), and the run's status from how it ended: a
// full disk (storage-watch.ts), Ctrl-C, or the circuit breaker.
import { join } from 'node:path';
import { schedule } from '../pool/scheduler.ts';
import { loadHooks } from '../trial/hooks.ts';
import { failedResult, saveFailedResult } from '../trial/result.ts';
import type { RunContext, TrialHooks, TrialInput } from '../trial/types.ts';
import type { TrialResult } from '../types.ts';
import { breakerSize, ModelCircuitBreaker, type BreakerTrip } from './circuit-breaker.ts';
import type { Cleanup } from './cleanup.ts';
import { runContext } from './context.ts';
import { bringsOwnSandbox, SampleSpecs } from './sample-specs.ts';
import { checkpoint, type RunOptions } from './options.ts';
import type { OpenRun } from './open.ts';
import { isStorageError } from './output-dir.ts';
import type { PreparedRun } from './prepare.ts';
import { bootRunPool } from './pool-boot.ts';
import type { RunStatus } from './run-status.ts';
import { StorageWatch, type StorageStop } from './storage-watch.ts';

export interface TrialsOutcome {
  status: RunStatus;
  /** The circuit breaker stopped the run. */
  tripped: BreakerTrip | null;
  /** The disk stopped the run. */
  storage: StorageStop | null;
}

export async function runTrials(
  p: PreparedRun,
  open: OpenRun,
  opts: RunOptions,
  cleanup: Cleanup,
): Promise<TrialsOutcome> {
  const disk = new StorageWatch(open.runDir, opts.signal, opts.console.warn);
  let stop: Stop | null = null;
  try {
    const run = await trialContext(p, open, opts);
    checkpoint(opts, 'shared');
    stop = await scheduleTrials(p, open, run, disk, opts, cleanup);
  } catch (err) {
    // single mode: a result that could not be saved rejects the trial itself
    if (isStorageError(err)) disk.stop(join(open.runDir, 'results'), err);
    if (!opts.signal.aborted && !disk.stopped) throw err;
  }
  let status: RunStatus = disk.stopped ? 'failed' : opts.signal.aborted ? 'interrupted' : 'complete';
  const tripped = stop?.trip ?? null;
  if (stop && tripped && status === 'complete') {
    status = 'failed';
    opts.console.warn(`stopped: ${stop.why} (${tripped.error}); ${tripped.trials_not_started} trial(s) never started`);
  }
  open.runJson.status = status;
  return { status, tripped, storage: disk.stopped };
}

/** The shared volume made and filled, the benchmark's prepareShared run, and the context every trial gets. */
export async function trialContext(p: PreparedRun, open: OpenRun, opts: RunOptions): Promise<RunContext> {
  const { benchmark, cfg, shared, sandbox } = p;
  if (shared && cfg.sandbox?.shared)
    open.volume = await shared.createSharedVolume(open.runId, cfg.sandbox.shared.source);
  const hooks = await loadHooks(benchmark.hooks);
  // the hook is handed every sample as an array: only then are they all held at once
  if (hooks.prepareShared)
    await hooks.prepareShared({ runDir: open.runDir, benchmarkDir: benchmark.dir, samples: [...benchmark.samples] });
  const volume = open.volume && cfg.sandbox?.shared ? { volume: open.volume, mount: cfg.sandbox.shared.mount } : null;
  const run = runContext(
    benchmark,
    opts.cwd,
    open.runId,
    open.runDir,
    p.agentId,
    p.agentRef,
    sandbox && { ...sandbox, shared: volume },
  );
  if (p.installed) run.installed = p.installed.installed;
  return run;
}

/** The circuit breaker's trip, and what tripped it. */
interface Stop {
  trip: BreakerTrip;
  why: string;
}

/** Every trial on the chosen pool; the breaker's trip, if it stopped the run. */
async function scheduleTrials(
  p: PreparedRun,
  open: OpenRun,
  run: RunContext,
  disk: StorageWatch,
  opts: RunOptions,
  cleanup: Cleanup,
): Promise<Stop | null> {
  const { cfg } = p;
  const prepare = samplePreparer(p, open.runDir, run, opts);
  // Under a debugger trials run in this process (pool/single.ts): so does an installed agent's gateway.
  if (p.installed)
    cleanup.defer('the model gateways', async () =>
      (await import('../agents/installed/worker-gateway.ts')).closeRunGateways(open.runId),
    );
  const context = open.trace?.carry(run) ?? run;
  const maxSandboxes = cfg.run.max_sandboxes ?? p.shared?.limit;
  // Booted while the run was checked (pool-boot.ts); a caller's prepared run without one boots it now.
  const booted = p.pool ?? bootRunPool(p.benchmark, p.agentRef, run.sandbox, p.layout, cleanup);
  const pool = await booted.booting.start(context, { maxSandboxes, trials: open.toRun.length });
  const closePool = booted.close;
  checkpoint(opts, 'pool');
  opts.console.start(p.benchmark, open.toRun.length, open.runDir, cfg.run.mode, p.layout);
  const breaker = new ModelCircuitBreaker(breakerSize(p.traits, cfg.run.circuit_breaker));
  const hooks = breakerHooks(breaker, opts);
  try {
    await schedule(pool, breaker.gate(open.toRun), {
      signal: disk.signal,
      hooks,
      onStart: opts.console.trialStarted,
      onResult: (r) => (breaker.observe(r), opts.console.trialFinished(r), disk.checkSaved(r)),
      admit: (signal, ahead) => breaker.admit(signal, ahead),
      onRetry: (t, attempt, r) =>
        opts.console.warn(
          `${t.taskId}: infrastructure error (${r.error?.message ?? 'sandbox'}); retrying with a fresh sandbox (${attempt})`,
        ),
      ...(prepare ? { prepare } : {}),
    });
  } finally {
    opts.console.end();
    await closePool();
  }
  const trip = breaker.finish();
  return trip && { trip, why: breaker.why };
}

/** Samples that bring their own sandbox get its image (found, built or pulled) before they run. */
export function samplePreparer(
  p: PreparedRun,
  runDir: string,
  run: RunContext,
  opts: RunOptions,
): ((trial: TrialInput) => Promise<TrialInput | TrialResult>) | null {
  const { benchmark, cfg } = p;
  const own = !benchmark.noOwnEnvironments && bringsOwnSandbox(benchmark.samples); // known at load: no pass over a streamed dataset
  if (!run.sandbox || !p.shared || !(own || benchmark.environment)) return null;
  const environments = new SampleSpecs(run.sandbox, p.shared.images, {
    benchmark: benchmark.name,
    benchmarkDir: benchmark.dir,
    runDir,
    maxBuilds: cfg.run.max_builds,
    buildTimeoutS: cfg.run.build_timeout_s,
    ...(cfg.run.pull ? { pull: { timeoutMs: cfg.run.pull_timeout_s * 1000 } } : {}),
    noNetwork: cfg.run.no_network,
    ...(benchmark.environment ? { environment: benchmark.environment } : {}),
    log: opts.console.info,
  });
  return async (trial) => {
    const ready = await environments.prepare(trial);
    if (!('kind' in ready)) return ready;
    const result = failedResult(run, trial, ready, new Date());
    await saveFailedResult(run, result);
    return result;
  };
}

/** A trial's hooks: its run's (or job cell's) breaker hears the first answered model call, then the trials held ahead go out. */
export function breakerHooks(breaker: ModelCircuitBreaker, opts: RunOptions): TrialHooks {
  const answered = () => breaker.answered();
  return {
    // Events cross worker boundaries only when someone reads them live (--verbose).
    ...(opts.console.wantsEvents ? { onEvent: opts.console.event } : {}),
    // Asked of a trial only until the breaker has heard a first answer or result: then no message.
    get onModelAnswered() {
      return breaker.wantsAnswer ? answered : undefined;
    },
  };
}
