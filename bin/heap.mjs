// V8's heap flags of a benchrig process, set before anything else loads: bin/benchrig.mjs imports
// this first, and the perf suite starts its run process with `--import bin/heap.mjs` to run as the
// CLI does. src/loader/heap-flags.mjs says which and why.
import { setHeapFlags } from '../src/loader/heap-flags.mjs';

setHeapFlags();
