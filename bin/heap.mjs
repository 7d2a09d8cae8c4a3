// V8's garbage collector tuned for a benchrig process (docs/performance.md#where-the-time-and-memory-go),
// before anything else is loaded: bin/benchrig.mjs imports this first (and the perf suite's run
// process, test/perf/child.ts, as the CLI does). A process's flags are shared by its threads.
//
// - The main thread's young generation stays at its first size (1 MB a semi-space) instead of
//   doubling up to 16 MB: it only schedules trials and reads their results, and the larger young
//   generation was up to 30 MB resident for no CPU time saved (a worker thread's is capped by the
//   pool: pool/threads.ts).
// - The old generation grows by 20% of what survives a full collection, not by up to 100%: a run's
//   main thread promotes garbage at a steady rate (the samples it reads, the results it is sent)
//   and, left to grow, carried 40 MB more of it at its peak.
// V8 reads both flags each time it resizes a heap, so setting them now applies to this process's
// heaps from here on.
import v8 from 'node:v8';

export const HEAP_FLAGS = ['--semi-space-growth-factor=1', '--heap-growing-percent=20'];

for (const flag of HEAP_FLAGS) v8.setFlagsFromString(flag);
