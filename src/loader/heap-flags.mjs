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

let wanted = false;

const apply = () => {
  for (const flag of HEAP_FLAGS) v8.setFlagsFromString(flag);
};

/** Sets the flags for this process (the CLI: bin/heap.mjs). */
export function setHeapFlags() {
  wanted = true;
  apply();
}

/** Sets them again after a worker thread's start reset them; nothing when they were never set (a library caller's process). */
export function restoreHeapFlags() {
  if (wanted) apply();
}
