// The `threads` pool's threads themselves (threads.ts routes the trials): `count` worker threads of
// one entry with their resource limits, one that exits replaced when the pool says so (a thread that
// had booted: one that dies booting would again), all ended by `close`. Plain node:worker_threads,
// not a pool library: one given no task would cost each run ~3 MB resident in the main thread and
// its worker (its code, and the assert and perf_hooks modules it loads: docs/performance.md).
import { Worker, type WorkerOptions } from 'node:worker_threads';

interface ThreadSetOptions {
  /** The compiled entry's file URL (an ES module). */
  entry: string;
  count: number;
  options: Pick<WorkerOptions, 'workerData' | 'resourceLimits'>;
  /** A thread was started (first, or in place of one that exited): its listeners go on here. */
  started(worker: Worker): void;
  /** Whether the thread that just exited (by the id it had) is replaced. */
  replaces(threadId: number): boolean;
  /** It exited, after its replacement (if any) was started. */
  exited(threadId: number, code: number): void;
}

export interface ThreadSet {
  /** The threads alive now, booting ones included. */
  readonly workers: ReadonlySet<Worker>;
  /** Ends every thread, replacing none; resolves once all have exited. */
  close(): Promise<void>;
}

export function startThreadSet(o: ThreadSetOptions): ThreadSet {
  const workers = new Set<Worker>();
  let closing = false;
  const start = () => {
    const worker = startWorker(o.entry, o.options);
    const threadId = worker.threadId; // -1 once it has exited
    workers.add(worker);
    // A thread's uncaught exception, or its heap's limit, also ends it: its 'exit' is what counts.
    worker.on('error', () => {});
    worker.once('exit', (code) => {
      workers.delete(worker);
      if (!closing && o.replaces(threadId)) start();
      o.exited(threadId, code);
    });
    o.started(worker);
  };
  for (let i = 0; i < o.count; i++) start();
  return {
    workers,
    async close() {
      closing = true;
      await Promise.all([...workers].map((w) => w.terminate()));
    },
  };
}

/** A thread without the tsx flags; Node refuses a list naming a per-process flag (--expose-gc): then it inherits all. */
function startWorker(entry: string, options: ThreadSetOptions['options']): Worker {
  const execArgv = workerExecArgv();
  if (execArgv) {
    try {
      return new Worker(new URL(entry), { ...options, execArgv });
    } catch (err) {
      if ((err as { code?: string }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw err;
    }
  }
  return new Worker(new URL(entry), options);
}

/**
 * The process's flags without a tsx registration (`--import tsx`, as under `node --import tsx` in
 * development), or undefined when it has none (the threads inherit the flags). The threads run
 * compiled JavaScript, and a tsx registration would cost each of them ~27 MB resident for nothing.
 */
function workerExecArgv(argv: readonly string[] = process.execArgv): string[] | undefined {
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
