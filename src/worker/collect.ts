// One full collection of this thread's heap, once it has booted: what its boot left (the loading and
// compiling of its modules) is garbage by then, and V8 sets the next limit of the old generation from
// what survives (--heap-growing-percent: loader/heap-flags.mjs), so that the boot's garbage neither
// stays resident nor sets how far the heap grows during the trials (docs/performance.md). `gc` is
// exposed to one new context only: the process's flag is set back at once.
import v8 from 'node:v8';
import vm from 'node:vm';

export function collectBootGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  let gc: () => void;
  try {
    gc = vm.runInNewContext('gc') as () => void;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
  gc();
}
