// V8's memory flags for a benchrig process (docs/performance.md#where-the-time-and-memory-go), set by
// bin/benchrig.mjs before anything else loads (bin/heap.mjs); each flag's reason is beside it. A
// process's flags are shared by its threads, but a worker thread's start sets them back to the command
// line's: whoever starts one calls restoreHeapFlags once it runs. Plain JavaScript: bin/ imports it
// before any TypeScript is compiled.
import v8 from 'node:v8';

export const HEAP_FLAGS = [
  // The main thread's young generation keeps its first size: it only schedules trials and reads
  // their results, and a larger one costs resident memory for no CPU saved (workers': pool/threads.ts).
  '--semi-space-growth-factor=1',
  // The old generation grows by 20% of what survives a full collection, not up to 100%: the main
  // thread promotes garbage (samples read, results sent) at a steady rate.
  '--heap-growing-percent=20',
  // WebAssembly (the llhttp parser of undici and of Node's own fetch, on every answer where a client
  // uses them) stays in the baseline compiler: the optimizing compiler's memory for that one large
  // function stays resident afterwards.
  '--liftoff-only',
  // A function is optimized after 16 × V8 11.3's default budget (67,584): the many functions a short
  // run calls a few hundred times are not. A run of many trials sets the default back (settleLongRun).
  '--interrupt-budget=1081344',
];

/** V8 11.3's own budget: a long run's trial code pays for being optimized many times over. */
const LONG_RUN_BUDGET = '--interrupt-budget=67584';
/**
 * Trials a run plans from which it counts as long: one-call trials on 2 threads took less CPU with
 * the compilers at once from about 8,000 (10,000: 1.09 against 1.26 ms a trial), more below (1,000:
 * 1.74 against 1.53 ms and 98 against 86 MB; 4,000: 1.48 against 1.22), alternated at load 10.
 */
export const LONG_RUN_TRIALS = 8000;

/** V8's own growth of the young generation (doubling, up to 16 MB a semi-space). */
const GROWING_YOUNG = '--semi-space-growth-factor=2';

/**
 * V8's compilers past its interpreter, Sparkplug (baseline) and TurboFan (optimizing), run only once
 * the process has used this much CPU time (every thread), or at once in a long run or `evaluate`.
 * Before, they cost a short run ~5 MB resident that it never earns back (TurboFan's own code pages of
 * the node binary and its zones, kept by glibc's arenas; Sparkplug's code): 10,000 one-call trials
 * take the same CPU time without them, 100,000 take 25% more without TurboFan (docs/performance.md).
 */
export const OPTIMIZE_AFTER_CPU_MS = 2000;
const WATCH_MS = 250;

let wanted = false;
let optimizing = false;
let longRun = false;
let bulkRead = false;

/** The flags as they stand: the memory flags, the compilers off until the process has earned them, what its command settled. */
function heapFlags() {
  if (!wanted) return [];
  return [
    ...HEAP_FLAGS,
    ...(optimizing ? ['--sparkplug', '--turbofan'] : ['--no-sparkplug', '--no-turbofan']),
    ...(longRun ? [LONG_RUN_BUDGET] : []),
    ...(bulkRead ? [GROWING_YOUNG] : []),
  ];
}

const apply = () => {
  for (const flag of heapFlags()) v8.setFlagsFromString(flag);
};

/** Sets the flags for this process (the CLI: bin/heap.mjs), and turns the compilers on once it has used OPTIMIZE_AFTER_CPU_MS. */
export function setHeapFlags() {
  wanted = true;
  apply();
  const timer = setInterval(() => {
    const { user, system } = process.cpuUsage();
    if ((user + system) / 1000 < OPTIMIZE_AFTER_CPU_MS) return;
    clearInterval(timer);
    optimizing = true;
    apply();
  }, WATCH_MS);
  timer.unref();
}

/**
 * A run of LONG_RUN_TRIALS or more (pool/threads.ts, before its first trial): the compilers at once
 * and V8's own optimization budget from then on, for the whole process (its flags are shared by
 * every thread), as a worker thread started later gets too. Nothing when the flags were never set
 * (a library caller's process).
 */
export function settleLongRun() {
  if (!wanted || longRun) return;
  longRun = optimizing = true;
  apply();
}

/**
 * A command that runs no trials and reads every result of a run (`benchrig evaluate`): the compilers
 * at once, and its young generation grows as V8's does by default. Each result parsed is garbage a
 * moment later; at 1 MB a semi-space the scavenges were a third of `evaluate`'s time
 * (docs/performance.md, a million trials). Nothing when the flags were never set (a library caller's process).
 */
export function settleBulkRead() {
  if (!wanted || bulkRead) return;
  bulkRead = optimizing = true;
  apply();
}

/** Sets them again after a worker thread's start reset them; nothing when they were never set (a library caller's process). */
export function restoreHeapFlags() {
  apply();
}
