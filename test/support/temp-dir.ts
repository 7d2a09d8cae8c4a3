// Temporary folders of a test file, removed once its tests are done. The removal is registered when
// this module loads, which is while vitest collects the file (each file loads its own copy): an
// afterAll registered first runs last, after the file's own afterAll hooks, so a folder may be used
// by any test or hook of the file. Loaded outside a test file (a perf run, a child process), nothing
// is registered and the folders stay, as they always did.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made = new Set<string>();

try {
  afterAll(() => {
    for (const dir of made) {
      try {
        rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
      } catch (err) {
        // a folder a test left unremovable (its mode, a mount) is reported, not a failed file
        process.stderr.write(`[tempDir] ${dir} not removed: ${(err as Error).message}\n`);
      }
    }
    made.clear();
  });
} catch {
  // not collecting a test file: nothing to register
}

/** A new folder under the system's temporary folder, removed after the test file. */
export function tempDir(prefix = 'benchrig-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}
