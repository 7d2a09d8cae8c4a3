// Starts child.ts in its own Node process and returns its report. The child runs compiled, as
// bin/benchrig.mjs runs the CLI (src/loader/compile.mjs): plain `node`, no loader registered, the
// heap's flags set first (bin/heap.mjs).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compiledUrl } from '../../src/loader/compile.mjs';
import type { ChildReport, RunSpec } from './child.ts';

const CHILD = new URL('./child.ts', import.meta.url);
const REPO = fileURLToPath(new URL('../../', import.meta.url));
/** What bin/benchrig.mjs imports before the CLI: V8's heap flags (bin/heap.mjs). */
export const HEAP_ARGS = ['--import', fileURLToPath(new URL('../../bin/heap.mjs', import.meta.url))];

export async function runChild(spec: RunSpec, extraNodeArgs: string[] = []): Promise<ChildReport> {
  const child = fileURLToPath(await compiledUrl(CHILD));
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...HEAP_ARGS, ...extraNodeArgs, child, JSON.stringify(spec)],
      { cwd: REPO, maxBuffer: 16 * 1024 * 1024, timeout: 600_000, env: { ...process.env, NO_COLOR: '1' } },
      (err, stdout, stderr) => {
        const line = stdout.trim().split('\n').at(-1) ?? '';
        try {
          if (err) throw err as Error;
          resolve(JSON.parse(line) as ChildReport);
        } catch (e) {
          reject(
            new Error(
              `perf run failed (${spec.benchmark}, ${spec.mode}): ${(e as Error).message}\n${stderr.slice(-2000)}`,
            ),
          );
        }
      },
    );
  });
}
