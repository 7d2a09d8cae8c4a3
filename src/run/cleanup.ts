// The run's cleanup stack: every step registers what it acquires (the installed agent's socket
// folder, the provider's placement, the run lock, run.json's guard, the run span, the sandboxes and shared volume,
// the pool, the gateways) and the run releases all of it, last acquired first, whatever failed.
// A release that fails or outlives its deadline is collected, never thrown over the error that
// ended the run.

interface Released {
  what: string;
  error: unknown;
}

interface Entry {
  what: string;
  release: () => unknown;
  timeoutMs: number;
}

/** How long one release may take before the rest go on without it (a sweep on a slow daemon). */
const RELEASE_TIMEOUT_MS = 60_000;

export class Cleanup {
  #stack: Entry[] = [];

  /**
   * Registers `release` for the end. Returns a function that releases it now (at most once; it is
   * then off the stack), for what a step holds only for a while (the pool).
   */
  defer(what: string, release: () => unknown, timeoutMs = RELEASE_TIMEOUT_MS): () => Promise<void> {
    const entry: Entry = { what, release, timeoutMs };
    this.#stack.push(entry);
    return async () => {
      const i = this.#stack.indexOf(entry);
      if (i < 0) return;
      this.#stack.splice(i, 1);
      await entry.release();
    };
  }

  get size(): number {
    return this.#stack.length;
  }

  /** Releases everything, last first; what failed, in that order. The stack is empty afterwards. */
  async dispose(): Promise<Released[]> {
    const failed: Released[] = [];
    for (let entry = this.#stack.pop(); entry; entry = this.#stack.pop()) {
      try {
        await withTimeout(entry);
      } catch (error) {
        failed.push({ what: entry.what, error });
      }
    }
    return failed;
  }
}

async function withTimeout(entry: Entry): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${entry.what}: not released after ${entry.timeoutMs / 1000}s`)),
      entry.timeoutMs,
    );
  });
  try {
    await Promise.race([Promise.resolve().then(entry.release), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `body` with a fresh stack and releases it at the end; `warn` hears what failed to release. */
export async function withCleanup<T>(body: (cleanup: Cleanup) => Promise<T>, warn: (line: string) => void): Promise<T> {
  const cleanup = new Cleanup();
  try {
    return await body(cleanup);
  } finally {
    for (const f of await cleanup.dispose())
      warn(`cleanup: ${f.what}: ${(f.error as Error)?.message ?? String(f.error)}`);
  }
}
