// `threads`: a piscina pool of --workers threads, --per-worker trials in flight in each
// (concurrentTasksPerWorker). Piscina owns the threads' lifecycle: it starts them, and when one
// dies (process.exit, an uncaught exception, out of memory, or terminated by us) it fails that
// thread's tasks and starts a new thread. Each piscina task is one trial. The trial's messages
// (events, sandbox, slots, cancel, result) travel over one MessagePort per thread, which the thread
// sends as it boots, so that they arrive in order and remote.ts handles them exactly as for
// processes. (A MessageChannel per trial left ~0.5 KB a trial in the main thread's old generation
// until its next full GC, and cost ~20 µs a trial: measured.) The RunContext goes once per thread,
// as workerData.
//
// Tasks get no piscina abort signal: piscina runs an abortable task alone in its thread, which
// would defeat --per-worker. A thread that does not answer a cancel is terminated directly (each
// trial reports its threadId first); piscina sees it exit and replaces it.
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { MessagePort, Worker } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { compiledUrl } from '../loader/compile.mjs';
import type { RunContext } from '../trial/types.ts';
import { THREAD_PORT, type MainMessage, type TrialMessage, type WorkerMessage } from './messages.ts';
import { DEFAULT_WORKER_MEMORY_MB, RemoteTrial, remoteSettings, type RemotePoolOptions } from './remote.ts';
import type { Pool } from './types.ts';
import type { ThreadTask } from '../worker/entry-thread.ts';

/** The thread's entry, compiled to JavaScript with the harness code it imports: no loader per thread. */
const ENTRY = new URL('../worker/entry-thread.ts', import.meta.url);
/** What piscina loads: a CommonJS module that imports the compiled entry (it says why). */
const PISCINA_FILE = fileURLToPath(new URL('../worker/entry-thread.cjs', import.meta.url));
const WORKER_YOUNG_GENERATION_MB = 4;

/**
 * The process's flags without a tsx registration (`--import tsx`, as under `node --import tsx` in
 * development), or undefined when it has none (the threads inherit the flags). The threads run
 * compiled JavaScript, and a tsx registration would cost each of them ~27 MB resident for nothing.
 */
export function workerExecArgv(argv: readonly string[] = process.execArgv): string[] | undefined {
  const isTsx = (v: string | undefined) => !!v && /^tsx(\/|$)/.test(v);
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const m = /^(--import|--loader|--experimental-loader|--require|-r)(?:=(.*))?$/.exec(argv[i]);
    if (m && m[2] !== undefined && isTsx(m[2])) continue;
    if (m && m[2] === undefined && isTsx(argv[i + 1])) {
      i++;
      continue;
    }
    out.push(argv[i]);
  }
  return out.length === argv.length ? undefined : out;
}

type PiscinaOptions = NonNullable<ConstructorParameters<typeof Piscina>[0]>;

/** A pool whose threads skip the tsx flags; Node refuses a list naming a per-process flag (--expose-gc): then they inherit all. */
function startPiscina(options: PiscinaOptions): Piscina {
  const execArgv = workerExecArgv();
  if (execArgv) {
    try {
      return new Piscina({ ...options, execArgv });
    } catch (err) {
      if ((err as { code?: string }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw err;
    }
  }
  return new Piscina(options);
}

/** The message a piscina worker posts once its task module is loaded (piscina's common.READY). */
const PISCINA_READY = '_WORKER_READY';

/** Where one trial's messages go: its thread's port once the thread says it runs the trial. */
interface Route {
  trial: RemoteTrial;
  threadId?: number;
  port?: MessagePort;
  /** Messages for the trial before its thread is known (a cancel right after the start). */
  pending: MainMessage[];
}

export async function createThreadPool(run: RunContext, opts: RemotePoolOptions): Promise<Pool> {
  const settings = remoteSettings(run, opts);
  const memoryMb = opts.workerMemoryMb ?? DEFAULT_WORKER_MEMORY_MB;
  const piscina = startPiscina({
    filename: PISCINA_FILE,
    minThreads: opts.workers,
    maxThreads: opts.workers,
    concurrentTasksPerWorker: opts.perWorker,
    idleTimeout: Infinity,
    // Its run- and wait-time histograms are read by nobody here: one record less per task.
    recordTiming: false,
    // Atomics would let an idle thread block its event loop waiting for tasks: our trials are async
    // and their ports must keep being read.
    atomics: 'disabled',
    workerData: { run, entry: await compiledUrl(ENTRY) },
    // The young generation capped: left to grow, each thread's reaches ~32 MB under a fast trial
    // stream (10,000 trials: +100 MB resident for 2 threads), for no gain in CPU time. 4 MB rather
    // than 8: ~10 MB less for 2 threads, the same CPU time (measured, 2,000 one-call trials × 3).
    resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
  });
  // A thread's port arrives before its ready message (the same channel, posted first), so before
  // piscina gives the thread any task; a replacement thread's the same way. Listened for at once:
  // the threads are booting already.
  const routes = new Map<number, Route>();
  piscina.on('message', (msg: unknown) => {
    const m = msg as { [THREAD_PORT]?: MessagePort; threadId?: number } | null;
    const port = m?.[THREAD_PORT];
    if (!port || m.threadId === undefined) return;
    const threadId = m.threadId;
    const one = (wm: WorkerMessage) => {
      const route = 'id' in wm ? routes.get(wm.id) : undefined;
      if (!route) return; // a trial already settled
      if (wm.type !== 'thread') return route.trial.handle(wm as TrialMessage);
      route.threadId = threadId;
      route.port = port;
      for (const p of route.pending.splice(0)) port.postMessage(p);
    };
    // A thread batches its messages (entry-thread.ts): one message, or an array of them in order.
    port.on('message', (wm: WorkerMessage | WorkerMessage[]) => {
      if (Array.isArray(wm)) for (const m of wm) one(m);
      else one(wm);
    });
    port.once('close', () => port.removeAllListeners());
  });
  // Trials start once every thread has loaded its entry (the harness and the OpenAI SDK):
  // started mid-run, 8 booting threads starve the trials already running (measured: 64 trials of
  // 4 × 50 ms calls on 8 threads took 7.1 s instead of 1.6 s). A thread that dies booting counts as ready.
  await Promise.all(piscina.threads.map((t) => threadReady(t)));
  // Threads we terminated, with why (the cause for every trial they ran), and their exits for close().
  const killed = new Map<number, string>();
  const dying = new Set<Promise<unknown>>();

  const terminate = (threadId: number | undefined, cause: string) => {
    const thread = piscina.threads.find((t) => t.threadId === threadId);
    if (threadId === undefined || !thread || killed.has(threadId)) return;
    killed.set(threadId, cause);
    const exited = once(thread, 'exit').catch(() => {});
    dying.add(exited);
    void exited.then(() => dying.delete(exited));
    void thread.terminate();
  };

  const causeOf = (err: unknown, threadId: number | undefined): string => {
    const e = err as { code?: string; message?: string } | null;
    const kill = threadId === undefined ? undefined : killed.get(threadId);
    if (kill) return `it was killed: ${kill}`;
    if (e?.code === 'ERR_WORKER_OUT_OF_MEMORY') return `the worker ran out of memory (heap limit ${memoryMb} MB)`;
    const exit = /worker exited with code: (-?\d+)/.exec(e?.message ?? '');
    if (exit) return `the worker thread exited with code ${exit[1]}`;
    return `uncaught exception in the worker: ${e?.message ?? String(err)}`;
  };

  return {
    concurrency: opts.workers * opts.perWorker,
    run(input, { signal, hooks }) {
      const trial = new RemoteTrial(settings, input, { signal, hooks });
      const route: Route = { trial, pending: [] };
      let started = false;
      trial.start({
        send: (msg) => {
          // The first message is the trial itself: it becomes the piscina task.
          if (msg.type === 'run' && !started) {
            started = true;
            routes.set(msg.id, route);
            piscina.run({ id: msg.id, trial: msg.trial, events: msg.events } satisfies ThreadTask).catch((err) => trial.workerGone(causeOf(err, route.threadId)));
            return;
          }
          if (route.port) route.port.postMessage(msg);
          else route.pending.push(msg);
        },
        kill: (cause) => terminate(route.threadId, cause),
      });
      void trial.done.finally(() => routes.delete(trial.id));
      return trial.done;
    },
    async close() {
      await piscina.destroy();
      await Promise.all(dying);
    },
  };
}

/** Resolves when piscina's worker posts its ready message (its entry module is loaded), or exits. */
function threadReady(thread: Worker): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      thread.off('message', onMessage);
      thread.off('exit', done);
      resolve();
    };
    const onMessage = (msg: unknown) => {
      if (msg && typeof msg === 'object' && (msg as Record<string, unknown>)[PISCINA_READY]) done();
    };
    thread.on('message', onMessage);
    thread.once('exit', done);
  });
}
