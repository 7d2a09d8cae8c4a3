// A job's trials (docs/running.md#jobs): every cell's trials on ONE pool, interleaved cell by cell so
// that the pool stays full to the end (job-queue.ts), each result routed to its cell (its run folder, its breaker).
// The circuit breaker is per upstream (the model's endpoint and name): a model that is down stops
// the trials of its own cells, and the others run on.
import { join } from 'node:path';
import { schedule } from '../pool/scheduler.ts';
import type { RunContext, TrialInput, TrialResult } from '../trial/types.ts';
import { breakerSize, ModelCircuitBreaker, type BreakerTrip } from './circuit-breaker.ts';
import type { Cleanup } from './cleanup.ts';
import { JobQueue } from './job-queue.ts';
import type { Layout } from './layout.ts';
import type { OpenRun } from './open.ts';
import type { RunOptions } from './options.ts';
import { isStorageError } from './output-dir.ts';
import type { RunPool } from './pool-boot.ts';
import type { PreparedRun } from './prepare.ts';
import type { RunStatus } from './run-status.ts';
import { breakerHooks, samplePreparer, trialContext, type TrialsOutcome } from './run-trials.ts';
import { StorageWatch } from './storage-watch.ts';

/** One cell, prepared and opened as a run. */
export interface OpenCell {
  opts: RunOptions;
  prepared: PreparedRun;
  open: OpenRun;
}

interface LiveCell extends OpenCell {
  context: RunContext;
  disk: StorageWatch;
  breaker: ModelCircuitBreaker;
  prepare: ((t: TrialInput) => Promise<TrialInput | TrialResult>) | null;
  started: number;
  /** What names the cell on the console's trial lines: `[agent · model]` (and its benchmark's name when the job has several). */
  tag: string;
}

/** The upstream a cell's agent calls: one breaker for all the cells that share it. */
const upstreamOf = (p: PreparedRun) => `${p.cfg.llm.base_url}\n${p.cfg.llm.model}`;

/** The job's pool (pool-boot.ts bootJobPool), booting since its cells were loaded, with the layout it boots in. */
type JobPool = RunPool & { layout: Layout };

export async function runJobTrials(
  cells: OpenCell[],
  pool: JobPool,
  opts: RunOptions,
  cleanup: Cleanup,
): Promise<TrialsOutcome[]> {
  const breakers = new Map<string, ModelCircuitBreaker>();
  const live: LiveCell[] = [];
  const severalBenchmarks = new Set(cells.map((c) => c.prepared.benchmark.name)).size > 1;
  for (const c of cells) {
    const context = await trialContext(c.prepared, c.open, c.opts);
    const key = upstreamOf(c.prepared);
    const n = breakerSize(c.prepared.traits, c.prepared.cfg.run.circuit_breaker);
    if (!breakers.has(key)) breakers.set(key, new ModelCircuitBreaker(n));
    live.push({
      ...c,
      context: c.open.trace?.carry(context) ?? context,
      disk: new StorageWatch(c.open.runDir, opts.signal, opts.console.warn),
      breaker: breakers.get(key) as ModelCircuitBreaker,
      prepare: samplePreparer(c.prepared, c.open.runDir, context, c.opts),
      started: 0,
      tag: `[${severalBenchmarks ? `${c.prepared.benchmark.name} · ` : ''}${c.opts.label ?? c.open.runId}]`,
    });
  }
  const signal = AbortSignal.any([opts.signal, ...live.map((c) => c.disk.signal)]);
  try {
    await scheduleAll(live, pool, signal, opts, cleanup);
  } catch (err) {
    if (isStorageError(err)) live[0]?.disk.stop(join(live[0].open.runDir, 'results'), err);
    if (!opts.signal.aborted && !live.some((c) => c.disk.stopped)) throw err;
  }
  return live.map((c) => settle(c, opts));
}

async function scheduleAll(
  live: LiveCell[],
  booted: JobPool,
  signal: AbortSignal,
  opts: RunOptions,
  cleanup: Cleanup,
): Promise<void> {
  const first = live[0];
  if (!first) return;
  const { cfg } = first.prepared;
  // One pool for every cell: the layout of the cell that needs the most workers, in each cell's run.json.
  const { layout } = booted;
  for (const c of live)
    Object.assign(c.open.runJson, {
      workers: layout.workers,
      per_worker: layout.per_worker,
      layout: { picked: layout.picked, why: layout.why },
    });
  for (const c of live)
    if (c.prepared.installed)
      cleanup.defer('the model gateways', async () =>
        (await import('../agents/installed/worker-gateway.ts')).closeRunGateways(c.open.runId),
      );
  const total = live.reduce((n, c) => n + c.open.toRun.length, 0);
  const pool = await booted.booting.start(first.context, {
    maxSandboxes: cfg.run.max_sandboxes ?? first.prepared.shared?.limit,
    cells: live.map((c) => c.context),
    trials: total,
  });
  const closePool = booted.close;
  opts.console.start(first.prepared.benchmark, total, join(first.open.runDir, '..'), cfg.run.mode, layout);
  const queue = new JobQueue(live);
  const hooks = live.map((c) => breakerHooks(c.breaker, opts));
  try {
    await schedule(pool, queue, {
      signal,
      hooks: (t) => hooks[t.cell ?? 0],
      admit: (s, ahead) => queue.admit(s, ahead),
      onStart: (t) => opts.console.trialStarted({ ...t, taskId: `${live[t.cell ?? 0].tag} ${t.taskId}` }),
      onResult: (r, t) => {
        const c = live[t.cell ?? 0];
        c.breaker.observe(r);
        opts.console.trialFinished({ ...r, task_id: `${c.tag} ${r.task_id}` });
        c.disk.checkSaved(r);
      },
      onRetry: (t, attempt, r) =>
        opts.console.warn(
          `${live[t.cell ?? 0].tag} ${t.taskId}: infrastructure error (${r.error?.message ?? 'sandbox'}); retrying with a fresh sandbox (${attempt})`,
        ),
      prepare: (t) => live[t.cell ?? 0].prepare?.(t) ?? Promise.resolve(t),
    });
  } finally {
    opts.console.end();
    await closePool();
  }
}

/** How the cell's run ended (as run-trials.ts decides for a run), its run.json status set. */
function settle(c: LiveCell, opts: RunOptions): TrialsOutcome {
  const stopped = c.disk.stopped ?? null;
  let status: RunStatus = stopped ? 'failed' : opts.signal.aborted ? 'interrupted' : 'complete';
  const trip = c.breaker.trip;
  let tripped: BreakerTrip | null = null;
  if (trip) {
    tripped = { error: trip.error, trials_not_started: c.open.toRun.length - c.started };
    if (status === 'complete') status = 'failed';
    opts.console.warn(
      `${c.open.runDir}: stopped: ${c.breaker.why} (${trip.error}); ${tripped.trials_not_started} trial(s) never started`,
    );
  }
  c.open.runJson.status = status;
  return { status, tripped, storage: stopped };
}
