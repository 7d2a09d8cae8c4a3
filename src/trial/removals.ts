// Environments removed off a trial's critical path (docs/running.md#sandboxes-ready-before-they-are-needed):
// a trial's result leaves, and its worker's next trial starts, while the provider still removes the
// last environment. Its `--max-sandboxes` slot is held until the removal ends, and the worker's pool
// awaits every removal before it closes (`settled`); the run's sweep by label is the backstop.

const running = new Set<Promise<void>>();

/** Runs `removal` in the background of this worker; it never rejects (a failure is the sweep's to clean up). */
export function inBackground(removal: () => Promise<void>): void {
  const p: Promise<void> = removal()
    .catch(() => {})
    .finally(() => running.delete(p));
  running.add(p);
}

/** Resolves once every removal of this worker has ended, those that start meanwhile included. */
export async function removalsSettled(): Promise<void> {
  while (running.size) await Promise.all(running);
}
