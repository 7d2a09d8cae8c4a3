// `processes`: --workers child Node processes (child_process.fork, advanced IPC), --per-worker
// trials in flight in each. A process that exits, runs out of memory or is killed costs only its
// own trials (remote.ts turns them into results); a new process takes its place.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BenchrigError, type ErrorValue } from '../errors.ts';
import { compiledUrl } from '../loader/compile.mjs';
import type { RunContext } from '../trial/types.ts';
import type { WorkerMessage } from './messages.ts';
import { DEFAULT_WORKER_MEMORY_MB, RemoteTrial, remoteSettings, type RemotePoolOptions } from './remote.ts';
import type { Pool } from './types.ts';
import { drainWorker } from './drain.ts';
import { WorkerSlots } from './worker-slots.ts';

/** The process's entry, compiled to JavaScript with the harness code it imports (no loader to register). */
const ENTRY = new URL('../worker/entry-fork.ts', import.meta.url);
/** A worker that dies before it is ready this many times in a row means workers cannot start at all. */
const MAX_BOOT_FAILURES = 3;

interface ForkWorker {
  child: ChildProcess;
  ready: boolean;
  inflight: Map<number, RemoteTrial>;
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
  run: RunContext;
  opts: RemotePoolOptions;
  memoryMb: number;
  /** The compiled entry's path. */
  entry: string;
  workers: Set<ForkWorker>;
  queue: RemoteTrial[];
  closing: boolean;
  /** Workers in a row that died before they were ready. */
  bootFailures: number;
  readyCount: number;
  /** The pool's start: every worker ready, or workers cannot start at all. */
  firstReady: () => void;
  bootFailed: (err: Error) => void;
}

export async function createForkPool(run: RunContext, opts: RemotePoolOptions): Promise<Pool> {
  const settings = remoteSettings(run, opts);
  // Set by the executor, which runs at once.
  let firstReady = (): void => {};
  let bootFailed = (_err: Error): void => {};
  const booted = new Promise<void>((resolve, reject) => {
    firstReady = resolve;
    bootFailed = reject;
  });
  const state: ForkPoolState = {
    run,
    opts,
    memoryMb: opts.workerMemoryMb ?? DEFAULT_WORKER_MEMORY_MB,
    entry: fileURLToPath(await compiledUrl(ENTRY)),
    workers: new Set(),
    queue: [],
    closing: false,
    bootFailures: 0,
    readyCount: 0,
    firstReady,
    bootFailed,
  };

  for (let i = 0; i < opts.workers; i++) spawn(state);
  await booted;

  return {
    concurrency: opts.workers * opts.perWorker,
    run(input, { signal, hooks }) {
      const trial = new RemoteTrial(settings, input, { signal, hooks });
      if (state.closing) void trial.workerGone('the pool is closed');
      else {
        state.queue.push(trial);
        dispatch(state);
      }
      return trial.done;
    },
    async close() {
      state.closing = true;
      const all = [...state.workers];
      // Every worker's environments started ahead and not taken go, and its removals end, before it is ended.
      await Promise.all(
        all.map((w) =>
          drainWorker(w.child, (done) => {
            w.drained = done;
            if (w.child.connected) w.child.send({ type: 'drain' });
            else done();
          }),
        ),
      );
      // Ask politely (disconnect ends the worker loop), then insist after the grace period.
      for (const w of all) if (w.child.connected) w.child.disconnect();
      const timer = setTimeout(() => all.forEach((w) => w.child.kill('SIGKILL')), settings.graceMs);
      await Promise.all(all.map((w) => w.exited));
      clearTimeout(timer);
    },
  };
}

function spawn(state: ForkPoolState): void {
  const { run } = state;
  // The agent for the worker to start loading as it boots (name and module path only: argv is public).
  const child = fork(state.entry, [JSON.stringify({ name: run.agent.name, module: run.agent.module })], {
    execArgv: [`--max-old-space-size=${state.memoryMb}`],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  const w: ForkWorker = {
    child,
    ready: false,
    inflight: new Map(),
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
    w.child.send({ type: 'init', run: state.run, ...(state.opts.cells ? { cells: state.opts.cells } : {}) });
    // Trials start once every worker is up: processes booting mid-run (node and the harness)
    // starve the trials already running, as in threads.ts.
    if (++state.readyCount >= state.opts.workers) state.firstReady();
    return dispatch(state);
  }
  if (msg.type === 'fatal') return void (w.fatal = msg.error);
  if (msg.type === 'drained') return w.drained?.();
  const trial = w.inflight.get(msg.id);
  trial?.handle(msg);
  // A trial already settled; its slot is given back once its environment is removed.
  if (!trial && msg.type === 'release') w.slots.release(msg.reqId, msg.failed);
  if (trial?.settled) {
    w.inflight.delete(msg.id);
    dispatch(state);
  }
}

function onExit(state: ForkPoolState, w: ForkWorker, code: number | null, signal: NodeJS.Signals | null): void {
  state.workers.delete(w);
  const cause = exitCause(w, code, signal, state.memoryMb);
  for (const trial of w.inflight.values()) void trial.workerGone(cause);
  w.inflight.clear();
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
      if (w.ready && w.inflight.size < opts.perWorker && (!best || w.inflight.size < best.inflight.size)) best = w;
    if (!best) return;
    const trial = queue.shift();
    if (!trial) return; // not reached: the queue is not empty
    const w = best;
    w.inflight.set(trial.id, trial);
    trial.start({
      slots: w.slots,
      send: (msg) => w.child.connected && w.child.send(msg),
      kill: (cause) => {
        w.killedFor ??= cause;
        w.child.kill('SIGKILL');
      },
    });
    if (trial.settled) w.inflight.delete(trial.id);
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
