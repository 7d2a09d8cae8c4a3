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
  // A function is optimized after 16 × V8 11.3's default budget (67,584): a long run's hot paths
  // still are, the many functions a short run calls a few hundred times are not.
  '--interrupt-budget=1081344',
];

/**
 * V8's compilers past its interpreter, Sparkplug (baseline) and TurboFan (optimizing), run only once
 * the process has used this much CPU time (every thread). Before, they cost a short run ~5 MB
 * resident that it never earns back (TurboFan's own code pages of the node binary and its zones,
 * kept by glibc's arenas; Sparkplug's code): 10,000 one-call trials take the same CPU time without
 * them, 100,000 take 25% more without TurboFan; a run past this much CPU has them (docs/performance.md).
 */
export const OPTIMIZE_AFTER_CPU_MS = 2000;
const WATCH_MS = 250;

let wanted = false;
let optimizing = false;

/** The flags as they stand: the memory flags, and the compilers off until the process has earned them. */
function heapFlags() {
  if (!wanted) return [];
  return [...HEAP_FLAGS, ...(optimizing ? ['--sparkplug', '--turbofan'] : ['--no-sparkplug', '--no-turbofan'])];
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

/** Sets them again after a worker thread's start reset them; nothing when they were never set (a library caller's process). */
export function restoreHeapFlags() {
  apply();
}
