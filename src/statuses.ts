// The trial statuses, without the result file's zod schema (result-schema.ts, which re-exports them):
// a worker thread needs the statuses for every trial, and zod only to describe the files (zod's heap
// in each thread that loads it: docs/performance.md).

/** Every trial status (docs/sandboxes.md#who-is-blamed-for-what), in the order reports list them. */
export const TRIAL_STATUSES = [
  'PASSED',
  'FAILED',
  'AGENT_ERROR',
  'TIMEOUT',
  'AWAITING_REVIEW',
  'UNGRADABLE',
  'SANDBOX_ERROR',
  'MODEL_ERROR',
] as const;
