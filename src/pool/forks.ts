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
}

export async function createForkPool(run: RunContext, opts: RemotePoolOptions): Promise<Pool> {
  const settings = remoteSettings(run, opts);
  const memoryMb = opts.workerMemoryMb ?? DEFAULT_WORKER_MEMORY_MB;
  const workers = new Set<ForkWorker>();
  const queue: RemoteTrial[] = [];
  let closing = false;
  let bootFailures = 0;
  let readyCount = 0;
  let firstReady!: () => void;
  let bootFailed!: (err: Error) => void;
  const booted = new Promise<void>((resolve, reject) => ((firstReady = resolve), (bootFailed = reject)));
  const entry = fileURLToPath(await compiledUrl(ENTRY));

  const spawn = () => {
    // The agent for the worker to start loading as it boots (name and module path only: argv is public).
    const child = fork(entry, [JSON.stringify({ name: run.agent.name, module: run.agent.module })], {
      execArgv: [`--max-old-space-size=${memoryMb}`],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    });
    const w: ForkWorker = { child, ready: false, inflight: new Map(), stderrTail: '', exited: new Promise((r) => child.once('exit', () => r())) };
    workers.add(w);
    // Passed through to the user, and kept short so the cause of a death can be read from it.
    child.stderr!.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      w.stderrTail = (w.stderrTail + chunk.toString()).slice(-4096);
    });
    child.on('message', (msg: WorkerMessage) => onMessage(w, msg));
    child.once('exit', (code, signal) => onExit(w, code, signal));
    child.on('error', () => {}); // a failed spawn also emits 'exit'
  };

  const onMessage = (w: ForkWorker, msg: WorkerMessage) => {
    if (msg.type === 'ready') {
      w.ready = true;
      bootFailures = 0;
      w.child.send({ type: 'init', run });
      // Trials start once every worker is up: processes booting mid-run (node and the harness)
      // starve the trials already running, as in threads.ts.
      if (++readyCount >= opts.workers) firstReady();
      return dispatch();
    }
    if (msg.type === 'fatal') return void (w.fatal = msg.error);
    const trial = w.inflight.get(msg.id);
    trial?.handle(msg);
    if (trial?.settled) {
      w.inflight.delete(msg.id);
      dispatch();
    }
  };

  const onExit = (w: ForkWorker, code: number | null, signal: NodeJS.Signals | null) => {
    workers.delete(w);
    const cause = exitCause(w, code, signal, memoryMb);
    for (const trial of w.inflight.values()) void trial.workerGone(cause);
    w.inflight.clear();
    if (closing) return;
    if (!w.ready && ++bootFailures >= MAX_BOOT_FAILURES) {
      closing = true;
      const err = new BenchrigError('internal', `a worker process could not start: ${cause}`);
      bootFailed(err);
      for (const t of queue.splice(0)) void t.workerGone(err.message);
      return;
    }
    spawn();
  };

  // The least busy ready worker with room takes the next trial.
  const dispatch = () => {
    while (queue.length > 0) {
      let best: ForkWorker | undefined;
      for (const w of workers)
        if (w.ready && w.inflight.size < opts.perWorker && (!best || w.inflight.size < best.inflight.size)) best = w;
      if (!best) return;
      const trial = queue.shift()!;
      const w = best;
      w.inflight.set(trial.id, trial);
      trial.start({
        send: (msg) => w.child.connected && w.child.send(msg),
        kill: (cause) => {
          w.killedFor ??= cause;
          w.child.kill('SIGKILL');
        },
      });
      if (trial.settled) w.inflight.delete(trial.id);
    }
  };

  for (let i = 0; i < opts.workers; i++) spawn();
  await booted;

  return {
    concurrency: opts.workers * opts.perWorker,
    run(input, { signal, hooks }) {
      const trial = new RemoteTrial(settings, input, { signal, hooks });
      if (closing) void trial.workerGone('the pool is closed');
      else {
        queue.push(trial);
        dispatch();
      }
      return trial.done;
    },
    async close() {
      closing = true;
      const all = [...workers];
      // Ask politely (disconnect ends the worker loop), then insist after the grace period.
      for (const w of all) if (w.child.connected) w.child.disconnect();
      const timer = setTimeout(() => all.forEach((w) => w.child.kill('SIGKILL')), settings.graceMs);
      await Promise.all(all.map((w) => w.exited));
      clearTimeout(timer);
    },
  };
}

function exitCause(w: ForkWorker, code: number | null, signal: NodeJS.Signals | null, memoryMb: number): string {
  if (w.killedFor) return `it was killed: ${w.killedFor}`;
  if (/heap out of memory|Allocation failed/i.test(w.stderrTail)) return `the worker ran out of memory (heap limit ${memoryMb} MB)`;
  if (w.fatal) return `uncaught exception in the worker: ${w.fatal.message}`;
  if (signal) return `the worker process was killed by ${signal}`;
  return `the worker process exited with code ${code}`;
}
