// `threads`: a pool of --workers threads, --per-worker trials in flight in each. thread-set.ts
// starts the threads and replaces one that dies after booting; each thread
// sends one MessagePort as it boots and every message of its trials travels over it, in order, so that
// remote.ts handles them as for processes. This side picks the thread (the ready one with the fewest
// trials), fails a dead thread's running trials and gives its waiting ones to another. The threads boot
// before the run exists (run/pool-boot.ts): the RunContext goes once per thread, over its port, before
// its first trial; a thread that does not answer a cancel is terminated.
import { once } from 'node:events';
import type { MessagePort, Worker } from 'node:worker_threads';
import { compiledUrl } from '../loader/compile.mjs';
import { LONG_RUN_TRIALS, restoreHeapFlags, settleLongRun } from '../loader/heap-flags.mjs';
import type { TrialHooks, TrialInput, TrialSummary } from '../trial/types.ts';
import { THREAD_PORT, type MainMessage, type TrialMessage, type WorkerMessage } from './messages.ts';
import { PhaseBoard, type PhaseBoardInit } from './phase-board.ts';
import {
  DEFAULT_WORKER_MEMORY_MB,
  RemoteTrial,
  remoteSettings,
  type RemotePoolOptions,
  type RemoteSettings,
} from './remote.ts';
import type { BootingPool, PoolBoot } from './types.ts';

/** A thread's workerData (worker/entry-thread.ts): what it loads while it boots; the run comes later, over its port. */
export interface ThreadData {
  boot: PoolBoot;
  board: PhaseBoardInit;
  perWorker: number;
}
import { drainWorker } from './drain.ts';
import { startThreadSet, type ThreadSet } from './thread-set.ts';
import { WorkerSlots } from './worker-slots.ts';

/** The thread's entry, compiled to JavaScript with the harness code it imports: no loader per thread. */
const ENTRY = new URL('../worker/entry-thread.ts', import.meta.url);
const WORKER_YOUNG_GENERATION_MB = 2;

/** One thread of the pool, as the main side knows it: its port, whether it is ready, its trials. */
interface Thread {
  worker: Worker;
  threadId: number;
  port: MessagePort;
  /** Its entry has loaded (its 'ready' message): trials go only to ready threads. */
  ready: boolean;
  /** Its 'error' (an uncaught exception, out of memory): the cause for its trials when it exits. */
  error?: unknown;
  trials: Set<Route>;
  /** Of its trials, those waiting at the thread for a place, in order; the others run (at most --per-worker). */
  waiting: Route[];
  /** Messages for it not yet posted: they leave together at the end of this turn of the event loop. */
  outbox: MainMessage[] | null;
  /** The `--max-sandboxes` slots it holds (worker-slots.ts). */
  slots: WorkerSlots;
  /** Called by its 'drained' (the pool closes: drain). */
  drained?: () => void;
}

/** Where one trial's messages go: its thread's port once the trial is given to a thread. */
interface Route {
  trial: RemoteTrial;
  /** The trial's 'run' message, kept until a thread has room for it. */
  start?: MainMessage;
  thread?: Thread;
  /** Messages for the trial before it has a thread (a cancel right after the start). */
  pending: MainMessage[];
  /** Its slot on the phase board while it has a thread. */
  slot?: number;
  /** Its 'run' message, kept: a trial still waiting at a thread that dies goes to another. */
  runMessage?: MainMessage;
  /** Running at its thread (not waiting there for a place). */
  started: boolean;
}

/** The main side of the pool: the threads it knows, the trials it routes, the phase board's free slots. */
interface ThreadPoolState {
  opts: RemotePoolOptions;
  memoryMb: number;
  board: PhaseBoard;
  /** One slot per trial a thread may hold: a route takes one as it gets a thread, and gives it back when its trial is over. */
  freeSlots: number[];
  /** Its threads, once started (threads as they boot, and those that replace a dead one). */
  set?: ThreadSet;
  /** The run, for each thread before its first trial (a replacement thread too); null until the pool starts. */
  init: MainMessage | null;
  routes: Map<number, Route>;
  threads: Map<number, Thread>;
  /** Trials waiting for a thread with room (all busy, or one being replaced). */
  queue: Route[];
  /** Threads we terminated, with why (the cause for every trial they ran). */
  killed: Map<number, string>;
  /** Their exits, for close(). */
  dying: Set<Promise<unknown>>;
  /** The threads the pool's start waits for, by threadId: called once the thread has loaded its agents, or exits. */
  booting: Map<number, () => void>;
  closing: boolean;
}

/** The pool's threads start now; the run they serve is sent once it exists (`start`), before any trial. */
export function bootThreadPool(boot: PoolBoot, opts: RemotePoolOptions): BootingPool {
  const memoryMb = opts.workerMemoryMb ?? DEFAULT_WORKER_MEMORY_MB;
  const board = PhaseBoard.create(3 * opts.workers * opts.perWorker);
  const state: ThreadPoolState = {
    opts,
    memoryMb,
    board,
    freeSlots: Array.from({ length: board.slots }, (_, i) => board.slots - 1 - i),
    init: null,
    routes: new Map(),
    threads: new Map(),
    queue: [],
    killed: new Map(),
    dying: new Set(),
    booting: new Map(),
    closing: false,
  };
  const started = compiledUrl(ENTRY).then((entry) => {
    if (state.closing) return;
    const set = (state.set = startThreads(state, boot, entry));
    // Trials start once every thread has loaded its entry (the harness and the OpenAI SDK) and the
    // agents: started mid-run, 8 booting threads starve the trials already running (measured: 64
    // trials of 4 × 50 ms calls on 8 threads took 7.1 s instead of 1.6 s). A thread that dies booting
    // (or loading an agent, after it said it was ready) counts as booted.
    return Promise.all([...set.workers].map((worker) => booted(state, worker))).then(() => {});
  });
  started.catch(() => {}); // start() reports it
  const close = async () => {
    state.closing = true;
    await started.catch(() => {});
    // Every thread's environments started ahead and not taken go, and its removals end, before it
    // is ended. One not ready yet (the pool closed as it booted: a run refused) has none.
    await Promise.all(
      [...state.threads.values()]
        .filter((t) => t.ready)
        .map((t) =>
          drainWorker(t.worker, (done) => {
            t.drained = done;
            post(t, { type: 'drain' });
          }),
        ),
    );
    await state.set?.close();
    await Promise.all(state.dying);
  };
  return {
    async start(run, more) {
      const all = { ...opts, ...more };
      if ((all.trials ?? 0) >= LONG_RUN_TRIALS) settleLongRun();
      const settings = remoteSettings(run, all);
      // Before any trial, on each thread's port (in order with what follows); a thread that comes later gets it first.
      state.init = { type: 'init', run, ...(all.cells ? { cells: all.cells } : {}) };
      for (const t of state.threads.values()) post(t, state.init);
      await started;
      return {
        // Twice the trials that run at once: each thread holds its next ones (dispatch).
        concurrency: 2 * opts.workers * opts.perWorker,
        places: opts.workers * opts.perWorker,
        run: (input, runOpts) => runOnThread(state, settings, input, runOpts),
        close,
      };
    },
    close,
  };
}

/** The pool's threads, booting; their ports and messages wired to `state`. */
function startThreads(state: ThreadPoolState, boot: PoolBoot, entry: string): ThreadSet {
  const { opts, memoryMb, board } = state;
  return startThreadSet({
    entry,
    count: opts.workers,
    options: {
      workerData: { boot, board: board.init, perWorker: opts.perWorker } satisfies ThreadData,
      // The young generation capped: left to grow, each thread's reaches ~32 MB under a fast trial
      // stream (10,000 trials: +100 MB resident for 2 threads), for no gain in CPU time. 4 MB rather
      // than 8: ~10 MB less for 2 threads, the same CPU time (measured, 2,000 one-call trials × 3);
      // 2 rather than 4: ~3.5 MB less at the peak of 1,000 one-call trials on one thread, the same
      // peak and CPU time over 10,000 on two (1 MB saved nothing more).
      resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    },
    // A thread's port arrives over its parent port as it boots, and its 'ready' over that port once
    // its entry has loaded; a replacement thread's the same way.
    started: (worker) => {
      restoreWhileBooting(worker);
      const threadId = worker.threadId; // -1 once it has exited: an out-of-memory 'error' comes then
      worker.on('message', (msg: unknown) => onThreadPort(state, worker, msg));
      worker.on('error', (err) => {
        const thread = state.threads.get(threadId);
        if (thread) thread.error ??= err;
      });
    },
    // One that had booted is replaced; one that dies booting (or before it said it was ready) is not.
    replaces: (threadId) => state.threads.get(threadId)?.ready === true,
    exited: (threadId, code) => {
      const thread = state.threads.get(threadId);
      if (thread) gone(state, thread, code);
    },
  });
}

/**
 * A thread's start (its isolate made, on its own thread) sets some of the process's V8 flags back
 * (loader/heap-flags.mjs) at a moment this side cannot see; a scavenge of this thread's meanwhile
 * doubles its young generation for the rest of the run. The flags are set again every millisecond
 * until the thread is online: the agentic perf run's peak 81.5 MB (80.8-82.0) against 83.3
 * (80.7-83.8) without, 4 alternated runs each.
 */
function restoreWhileBooting(worker: Worker): void {
  const timer = setInterval(restoreHeapFlags, 1);
  const stop = () => clearInterval(timer);
  worker.once('online', stop);
  worker.once('exit', stop);
}

function causeOf(state: ThreadPoolState, err: unknown, threadId: number): string {
  const e = err as { code?: string; message?: string } | null;
  const kill = state.killed.get(threadId);
  if (kill) return `it was killed: ${kill}`;
  if (e?.code === 'ERR_WORKER_OUT_OF_MEMORY') return `the worker ran out of memory (heap limit ${state.memoryMb} MB)`;
  const exit = /worker exited with code: (-?\d+)/.exec(e?.message ?? '');
  if (exit) return `the worker thread exited with code ${exit[1]}`;
  return `uncaught exception in the worker: ${e?.message ?? String(err)}`;
}

// Each postMessage wakes its thread. A batch of results frees several places at once: the trials
// that take them leave in one message per thread, with whatever else was sent to it in this turn
// (in order: a thread's messages all go through its outbox). Measured over 10,000 one-call
// trials: 10,000 'run' messages became ~4,500, and ~2,600 with each thread holding its next trials.
function post(thread: Thread, msg: MainMessage): void {
  if (thread.outbox) return void thread.outbox.push(msg);
  const out = [msg];
  thread.outbox = out;
  setImmediate(() => {
    thread.outbox = null;
    thread.port.postMessage(out.length === 1 ? out[0] : out);
  });
}

/**
 * Gives waiting trials to the ready threads with the fewest trials: --per-worker running at each,
 * and as many more waiting there, which the thread starts itself as places free (worker/init.ts).
 * Its next trials are at hand when one ends, and its results can wait to leave in batches.
 */
function dispatch(state: ThreadPoolState): void {
  const { queue, opts } = state;
  while (queue.length > 0) {
    let best: Thread | undefined;
    for (const t of state.threads.values())
      if (t.ready && t.trials.size < 2 * opts.perWorker && (!best || t.trials.size < best.trials.size)) best = t;
    if (!best) return;
    const route = queue.shift();
    if (!route) return; // not reached: the queue is not empty
    route.thread = best;
    best.trials.add(route);
    // The thread does the same: it starts a trial at once while it runs fewer than --per-worker.
    route.started = best.trials.size - best.waiting.length <= opts.perWorker;
    if (route.started) route.trial.clockStarts();
    else best.waiting.push(route);
    // None left only while a dead thread's trials are being saved: then the trial's thread sends 'agent' messages.
    route.slot = state.freeSlots.pop();
    if (route.slot !== undefined) state.board.assign(route.slot, route.trial.id);
    // The slot is set on the message itself: a copy made with a spread ({ ...start, slot }) left
    // ~1 MB/s of garbage in the main thread's old space during a run (a new map per copy, it
    // seems: measured with --trace-gc, the old space grew until a major GC; peak RSS +30 MB at
    // 100,000 trials), where setting the property leaves none.
    const msg = route.start as Extract<MainMessage, { type: 'run' }>;
    msg.slot = route.slot;
    post(best, msg);
    route.runMessage = msg;
    route.start = undefined;
    for (const p of route.pending.splice(0)) post(best, p);
  }
}

/** A trial of the thread is over: a running one's place goes to the thread's next waiting trial, as at the thread. */
function leave(thread: Thread, route: Route): void {
  if (!thread.trials.delete(route)) return;
  if (!route.started) return void thread.waiting.splice(thread.waiting.indexOf(route), 1);
  // The first that is still to end: one cancelled while it waited is ending, and leaves by itself.
  const i = thread.waiting.findIndex((r) => !r.trial.settled);
  if (i < 0) return;
  const [next] = thread.waiting.splice(i, 1);
  next.started = true;
  next.trial.clockStarts();
}

// A thread that exits is replaced (unless it died booting: thread-set.ts): its trials fail with the cause.
function gone(state: ThreadPoolState, thread: Thread, code: number): void {
  const { queue } = state;
  state.threads.delete(thread.threadId);
  thread.port.removeAllListeners();
  const cause = causeOf(state, thread.error ?? new Error(`worker exited with code: ${code}`), thread.threadId);
  // Trials that never started there go to another thread, first in line; the others end with the cause.
  const unstarted = thread.waiting.splice(0).filter((r) => !r.trial.cancelled && !r.trial.settled);
  for (const route of thread.trials) if (route.started || route.trial.cancelled) void route.trial.workerGone(cause);
  thread.trials.clear();
  thread.slots.releaseAll(); // its trials' environments died with it or are being removed from here
  thread.drained?.();
  for (const route of unstarted.reverse()) {
    route.trial.requeued();
    if (route.slot !== undefined) state.freeSlots.push(route.slot);
    Object.assign(route, { thread: undefined, slot: undefined, start: route.runMessage, started: false });
    queue.unshift(route);
  }
  if (unstarted.length) dispatch(state);
  // Its replacement, if any, has started already (thread-set.ts); none left means none will.
  if (!state.closing && state.set?.workers.size === 0)
    for (const route of queue.splice(0)) void route.trial.workerGone(`no worker thread could be started: ${cause}`);
}

/** Resolves once the thread has loaded its agents ('loaded'), or exits. */
function booted(state: ThreadPoolState, worker: Worker): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => (state.booting.delete(worker.threadId), worker.off('exit', done), resolve());
    state.booting.set(worker.threadId, done);
    worker.once('exit', done);
  });
}

/** A message on a thread's parent port: its port, as it boots (nothing else comes that way). */
function onThreadPort(state: ThreadPoolState, worker: Worker, msg: unknown): void {
  const port = (msg as { [THREAD_PORT]?: MessagePort } | null)?.[THREAD_PORT];
  if (!port || state.threads.has(worker.threadId)) return;
  const thread: Thread = {
    worker,
    threadId: worker.threadId,
    port,
    ready: false,
    trials: new Set(),
    waiting: [],
    outbox: null,
    slots: new WorkerSlots(),
  };
  state.threads.set(thread.threadId, thread);
  if (state.init) post(thread, state.init);
  // A thread batches its messages (entry-thread.ts): one message, or an array of them in order.
  port.on('message', (wm: WorkerMessage | WorkerMessage[]) => {
    if (Array.isArray(wm)) for (const x of wm) onThreadMessage(state, thread, x);
    else onThreadMessage(state, thread, wm);
  });
}

function onThreadMessage(state: ThreadPoolState, thread: Thread, wm: WorkerMessage): void {
  if (wm.type === 'ready') {
    thread.ready = true;
    restoreHeapFlags(); // the thread's start reset the process's V8 flags (loader/heap-flags.mjs)
    return dispatch(state);
  }
  if (wm.type === 'loaded') return void state.booting.get(thread.threadId)?.();
  if (wm.type === 'drained') return thread.drained?.();
  const route = 'id' in wm ? state.routes.get(wm.id) : undefined;
  if (route) route.trial.handle(wm as TrialMessage);
  // A trial already settled; its slot is given back once its environment is removed.
  else if (wm.type === 'release') thread.slots.release(wm.reqId, wm.failed);
}

function terminate(state: ThreadPoolState, thread: Thread | undefined, cause: string): void {
  if (!thread || state.killed.has(thread.threadId)) return;
  state.killed.set(thread.threadId, cause);
  const exited = once(thread.worker, 'exit').catch(() => {});
  state.dying.add(exited);
  void exited.then(() => state.dying.delete(exited));
  void thread.worker.terminate();
}

/** The pool's `run`: the trial waits in the queue for a thread with room, then its messages go to that thread. */
function runOnThread(
  state: ThreadPoolState,
  settings: RemoteSettings,
  input: TrialInput,
  { signal, hooks }: { signal: AbortSignal; hooks?: TrialHooks },
): Promise<TrialSummary> {
  const { routes, queue } = state;
  const trial = new RemoteTrial(settings, input, { signal, hooks });
  const route: Route = { trial, pending: [], started: false };
  trial.start({
    send: (msg) => {
      // The first message is the trial itself: it waits for a thread with room.
      if (msg.type === 'run' && !routes.has(msg.id)) {
        routes.set(msg.id, route);
        route.start = msg;
        queue.push(route);
        return dispatch(state);
      }
      if (route.thread) post(route.thread, msg);
      else route.pending.push(msg);
    },
    kill: (cause) => terminate(state, route.thread, cause),
    agentPhase: () => (route.slot === undefined ? { at: 'before' } : state.board.read(route.slot, trial.id)),
    clockFromPool: true,
    get slots() {
      return route.thread?.slots;
    },
  });
  void trial.done.finally(() => {
    routes.delete(trial.id);
    const waiting = queue.indexOf(route);
    if (waiting >= 0) queue.splice(waiting, 1);
    if (route.slot !== undefined) state.freeSlots.push(route.slot);
    route.slot = undefined;
    if (route.thread) {
      leave(route.thread, route);
      dispatch(state);
    }
  });
  return trial.done;
}
