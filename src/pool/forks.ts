// `processes`: --workers child Node processes (child_process.fork, advanced IPC), --per-worker
// trials in flight in each. A process that exits, runs out of memory or is killed costs only its
// own trials (remote.ts turns them into results); a new process takes its place.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BenchrigError, type ErrorValue } from '../errors.ts';
import { compiledUrl } from '../loader/compile.mjs';
import type { MainMessage, WorkerMessage } from './messages.ts';
import {
  DEFAULT_GRACE_MS,
  DEFAULT_WORKER_MEMORY_MB,
  RemoteTrial,
  remoteSettings,
  type RemotePoolOptions,
} from './remote.ts';
import type { BootingPool, PoolBoot } from './types.ts';
import { drainWorker } from './drain.ts';
import { WorkerSlots } from './worker-slots.ts';

/** The process's entry, compiled to JavaScript with the harness code it imports (no loader to register). */
const ENTRY = new URL('../worker/entry-fork.ts', import.meta.url);
/** A worker that dies before it is ready this many times in a row means workers cannot start at all. */
const MAX_BOOT_FAILURES = 3;

interface ForkWorker {
  child: ChildProcess;
  ready: boolean;
  /** Its agents are loaded ('loaded'), or it died after it was ready: the pool's start counts it. */
  loaded: boolean;
  inflight: Map<number, RemoteTrial>;
  /**
   * Of those, the ones waiting at the worker for a place, in order (as its loop keeps them:
   * worker/init.ts): each process holds its next trials, whose environments it starts ahead.
   */
  waiting: RemoteTrial[];
  exited: Promise<void>;
  stderrTail: string;
  fatal?: ErrorValue;
  killedFor?: string;
  /** The `--max-sandboxes` slots it holds (worker-slots.ts). */
  slots: WorkerSlots;
  /** Called by its 'drained' (the pool closes: drain). */
  drained?: () => void;
}

/** The main side of the pool: its processes, the trials waiting for one, and how the pool's start is going. */
interface ForkPoolState {
  boot: PoolBoot;
  /** The run and a job's cells, sent to each worker once it is ready: null until the pool starts. */
  init: MainMessage | null;
  opts: RemotePoolOptions;
  memoryMb: number;
  /** The compiled entry's path. */
  entry: string;
  workers: Set<ForkWorker>;
  queue: RemoteTrial[];
  closing: boolean;
  /** Workers in a row that died before they were ready. */
  bootFailures: number;
  loadedCount: number;
  /** The pool's start: every worker ready with its agents loaded, or workers cannot start at all. */
  firstReady: () => void;
  bootFailed: (err: Error) => void;
}

/** The pool's processes start now; the run they serve is sent once it exists (`start`), before any trial. */
export function bootForkPool(boot: PoolBoot, opts: RemotePoolOptions): BootingPool {
  // Set by the executor, which runs at once.
  let firstReady = (): void => {};
  let bootFailed = (_err: Error): void => {};
  const booted = new Promise<void>((resolve, reject) => {
    firstReady = resolve;
    bootFailed = reject;
  });
  booted.catch(() => {}); // start() reports it
  const state: ForkPoolState = {
    boot,
    init: null,
    opts,
    memoryMb: opts.workerMemoryMb ?? DEFAULT_WORKER_MEMORY_MB,
    entry: '',
    workers: new Set(),
    queue: [],
    closing: false,
    bootFailures: 0,
    loadedCount: 0,
    firstReady,
    bootFailed,
  };
  const spawned = compiledUrl(ENTRY).then((url) => {
    state.entry = fileURLToPath(url);
    if (!state.closing) for (let i = 0; i < opts.workers; i++) spawn(state);
  });
  spawned.catch(() => {}); // start() reports it
  const close = async () => {
    state.closing = true;
    await spawned.catch(() => {});
    const all = [...state.workers];
    // Every worker's environments started ahead and not taken go, and its removals end, before it is
    // ended. One not ready yet (the pool closed as it booted: a run refused) has none.
    await Promise.all(
      all
        .filter((w) => w.ready)
        .map((w) =>
          drainWorker(w.child, (done) => {
            w.drained = done;
            if (w.child.connected) w.child.send({ type: 'drain' });
            else done();
          }),
        ),
    );
    // Ask politely (disconnect ends the worker loop), then insist after the grace period.
    for (const w of all) if (w.child.connected) w.child.disconnect();
    const timer = setTimeout(() => all.forEach((w) => w.child.kill('SIGKILL')), opts.graceMs ?? DEFAULT_GRACE_MS);
    await Promise.all(all.map((w) => w.exited));
    clearTimeout(timer);
  };
  return {
    async start(run, more) {
      const all = { ...opts, ...more };
      const settings = remoteSettings(run, all);
      state.init = { type: 'init', run, ...(all.cells ? { cells: all.cells } : {}) };
      for (const w of state.workers) if (w.ready) w.child.send(state.init);
      await spawned;
      await booted;
      return {
        // Twice the trials that run at once: each process holds its next ones (dispatch), as threads do.
        concurrency: 2 * opts.workers * opts.perWorker,
        places: opts.workers * opts.perWorker,
        run(input, { signal, hooks }) {
          const trial = new RemoteTrial(settings, input, { signal, hooks });
          if (state.closing) void trial.workerGone('the pool is closed');
          else {
            state.queue.push(trial);
            dispatch(state);
          }
          return trial.done;
        },
        close,
      };
    },
    close,
  };
}

function spawn(state: ForkPoolState): void {
  // The agents for the worker to start loading as it boots (names and module paths only: argv is public).
  const agents = state.boot.agents.map((a) => ({ name: a.name, module: a.module }));
  const child = fork(state.entry, [JSON.stringify(agents), String(state.opts.perWorker)], {
    execArgv: [`--max-old-space-size=${state.memoryMb}`],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  const w: ForkWorker = {
    child,
    ready: false,
    loaded: false,
    inflight: new Map(),
    waiting: [],
    stderrTail: '',
    slots: new WorkerSlots(),
    exited: new Promise((r) => child.once('exit', () => r())),
  };
  state.workers.add(w);
  // Passed through to the user, and kept short so the cause of a death can be read from it.
  // Always there ('pipe' above).
  child.stderr?.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    w.stderrTail = (w.stderrTail + chunk.toString()).slice(-4096);
  });
  child.on('message', (msg: WorkerMessage) => onMessage(state, w, msg));
  child.once('exit', (code, signal) => onExit(state, w, code, signal));
  child.on('error', () => {}); // a failed spawn also emits 'exit'
}

function onMessage(state: ForkPoolState, w: ForkWorker, msg: WorkerMessage): void {
  if (msg.type === 'ready') {
    w.ready = true;
    state.bootFailures = 0;
    if (state.init) w.child.send(state.init);
    return dispatch(state);
  }
  if (msg.type === 'loaded') return loaded(state, w);
  if (msg.type === 'fatal') return void (w.fatal = msg.error);
  if (msg.type === 'drained') return w.drained?.();
  const trial = w.inflight.get(msg.id);
  trial?.handle(msg);
  // A trial already settled; its slot is given back once its environment is removed.
  if (!trial && msg.type === 'release') w.slots.release(msg.reqId, msg.failed);
  if (trial?.settled) {
    leave(w, trial);
    dispatch(state);
  }
}

/**
 * Trials start once every worker is up with its agents loaded: processes booting mid-run (node, the
 * harness, an agent module) starve the trials already running, as in threads.ts. One that dies
 * after it was ready (an agent that crashes it as it loads) counts: its replacement is not awaited.
 */
function loaded(state: ForkPoolState, w: ForkWorker): void {
  if (w.loaded) return;
  w.loaded = true;
  if (++state.loadedCount >= state.opts.workers) state.firstReady();
}

/** A trial of the worker is over: a running one's place goes to the worker's next waiting trial, as in its loop. */
function leave(w: ForkWorker, trial: RemoteTrial): void {
  if (!w.inflight.delete(trial.id)) return;
  const queued = w.waiting.indexOf(trial);
  if (queued >= 0) return void w.waiting.splice(queued, 1);
  // The first that is still to end: one cancelled while it waited is ending, and leaves by itself.
  const i = w.waiting.findIndex((t) => !t.settled);
  if (i < 0) return;
  const [next] = w.waiting.splice(i, 1);
  next.clockStarts();
}

function onExit(state: ForkPoolState, w: ForkWorker, code: number | null, signal: NodeJS.Signals | null): void {
  state.workers.delete(w);
  if (w.ready) loaded(state, w);
  const cause = exitCause(w, code, signal, state.memoryMb);
  // Trials that never started there go to another worker, first in line; the others end with the cause.
  const unstarted = w.waiting.splice(0).filter((t) => !t.cancelled && !t.settled);
  for (const trial of w.inflight.values()) if (!unstarted.includes(trial)) void trial.workerGone(cause);
  w.inflight.clear();
  for (const trial of unstarted.reverse()) {
    trial.requeued();
    if (!state.closing) state.queue.unshift(trial);
    else void trial.workerGone(cause);
  }
  w.slots.releaseAll(); // its trials' environments died with it or are being removed from here
  w.drained?.();
  if (state.closing) return;
  if (!w.ready && ++state.bootFailures >= MAX_BOOT_FAILURES) {
    state.closing = true;
    const err = new BenchrigError('internal', `a worker process could not start: ${cause}`);
    state.bootFailed(err);
    for (const t of state.queue.splice(0)) void t.workerGone(err.message);
    return;
  }
  spawn(state);
}

// The least busy ready worker with room takes the next trial.
function dispatch(state: ForkPoolState): void {
  const { queue, opts } = state;
  while (queue.length > 0) {
    let best: ForkWorker | undefined;
    for (const w of state.workers)
      if (w.ready && w.inflight.size < 2 * opts.perWorker && (!best || w.inflight.size < best.inflight.size)) best = w;
    if (!best) return;
    const trial = queue.shift();
    if (!trial) return; // not reached: the queue is not empty
    const w = best;
    w.inflight.set(trial.id, trial);
    // The worker does the same: it starts a trial at once while it runs fewer than --per-worker.
    const started = w.inflight.size - w.waiting.length <= opts.perWorker;
    if (!started) w.waiting.push(trial);
    trial.start({
      slots: w.slots,
      send: (msg) => w.child.connected && w.child.send(msg),
      kill: (cause) => {
        w.killedFor ??= cause;
        w.child.kill('SIGKILL');
      },
      clockFromPool: true,
    });
    if (started) trial.clockStarts();
    if (trial.settled) leave(w, trial);
  }
}

function exitCause(w: ForkWorker, code: number | null, signal: NodeJS.Signals | null, memoryMb: number): string {
  if (w.killedFor) return `it was killed: ${w.killedFor}`;
  if (/heap out of memory|Allocation failed/i.test(w.stderrTail))
    return `the worker ran out of memory (heap limit ${memoryMb} MB)`;
  if (w.fatal) return `uncaught exception in the worker: ${w.fatal.message}`;
  if (signal) return `the worker process was killed by ${signal}`;
  return `the worker process exited with code ${code}`;
}
