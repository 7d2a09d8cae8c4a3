// V8's memory flags for a benchrig process (docs/performance.md#where-the-time-and-memory-go), set by
// bin/benchrig.mjs before anything else loads (bin/heap.mjs). A process's V8 flags are shared by
// all its threads.
//
// - The main thread's young generation stays at its first size (1 MB a semi-space) instead of
//   doubling up to 16 MB: it only schedules trials and reads their results, and the larger young
//   generation was up to 30 MB resident for no CPU time saved (a worker thread's is capped by the
//   pool: pool/threads.ts).
// - The old generation grows by 20% of what survives a full collection, not by up to 100%: a run's
//   main thread promotes garbage at a steady rate (the samples it reads, the results it is sent)
//   and, left to grow, its old generation went from 24 to 63 MB between two full collections.
// - WebAssembly stays in its baseline compiler (Liftoff). The only WebAssembly a run executes is
//   undici's HTTP parser (llhttp, every model call's response); once it was hot, V8 recompiled it
//   with its optimizing compiler, whose memory for that one large function peaked at ~30 MB, kept
//   by malloc afterwards: 20 MB of a 1,000-sample run's peak, for a parser that reads a few hundred
//   bytes a call.
// - A JavaScript function is optimized after 16 times the default budget of calls and loops: the
//   hot paths of a long run still are, the many functions a short run calls a few hundred times
//   are not (each optimization's memory, in a compiler thread's malloc arena, stays resident): 7 MB
//   less at a 1,000-sample run's peak, and no more CPU time in the suite's 10,000-trial row.
//
// V8 reads each of them when it next uses it, so they apply from when they are set. A worker
// thread's start sets every V8 flag back to the command line's (measured on Node 20): whoever
// starts one calls restoreHeapFlags once it runs. Plain JavaScript: bin/ imports it before any
// TypeScript is compiled.
import v8 from 'node:v8';

export const HEAP_FLAGS = [
  '--semi-space-growth-factor=1',
  '--heap-growing-percent=20',
  '--liftoff-only',
  '--interrupt-budget=1081344', // 16 × V8 11.3's default (67,584)
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
