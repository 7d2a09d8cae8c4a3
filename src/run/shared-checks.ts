// What a job's cells (run/job.ts) check once between them rather than once each: the same agent
// module's load check and hash, the same model endpoint's check, the same benchmark's same-name
// warning, the git commit. Each check's key names everything its answer depends on, so a cell gets
// the answer it would have got alone (a refusal too: the rejected promise is shared).
export class SharedChecks {
  readonly #done = new Map<string, unknown>();

  /** `f()`'s value (a promise: the same promise) for the first call with this key, kept for the next. */
  once<T>(key: string, f: () => T): T {
    if (!this.#done.has(key)) this.#done.set(key, f());
    return this.#done.get(key) as T;
  }
}

/** `f()` once per key among a job's cells; a plain run (no SharedChecks) calls it. */
export const onceAmong = <T>(shared: SharedChecks | undefined, key: string, f: () => T): T =>
  shared ? shared.once(key, f) : f();
