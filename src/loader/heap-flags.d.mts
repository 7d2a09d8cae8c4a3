// Types of heap-flags.mjs (plain JavaScript: bin/ imports it before any TypeScript is compiled).
export declare const HEAP_FLAGS: readonly string[];
export declare const OPTIMIZE_AFTER_CPU_MS: number;
export declare function setHeapFlags(): void;
export declare function restoreHeapFlags(): void;
export declare const LONG_RUN_TRIALS: number;
export declare function settleLongRun(): void;
export declare function settleBulkRead(): void;
