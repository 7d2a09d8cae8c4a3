// The run folder (docs/reports.md#files): evals/<agent-id>/<benchmark>/<YYYYMMDD-HHMMSS>[-N]/ and run.json.
import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { makeResultFolders } from '../report/result-layout.ts';

export function timestamp(d = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
}

/**
 * Creates a fresh run folder; a taken timestamp gets a suffix rather than mixing two runs. Its
 * results/ and logs/ are sharded for a run of many trials (report/result-layout.ts).
 */
export async function createRunDir(
  root: string,
  agentId: string,
  benchmark: string,
  now = new Date(),
  nTrials = 0,
): Promise<string> {
  const parent = resolve(root, safeName(agentId), safeName(benchmark));
  await mkdir(parent, { recursive: true });
  const base = timestamp(now);
  for (let i = 1; ; i++) {
    const dir = join(parent, i === 1 ? base : `${base}-${i}`);
    try {
      await mkdir(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw err;
    }
    makeResultFolders(dir, nTrials);
    return dir;
  }
}

/** A job's cell: its run folder at a path the job chose (run/job.ts); refused if it exists. */
export async function createRunDirAt(dir: string, nTrials = 0): Promise<string> {
  await mkdir(dirname(dir), { recursive: true });
  await mkdir(dir);
  makeResultFolders(dir, nTrials);
  return dir;
}

/** File-safe: letters, digits, dot, dash, underscore; anything else becomes `_`. */
export function safeName(s: string): string {
  const out = s.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
  return out.length > 0 ? out.slice(0, 120) : '_';
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const HARNESS_VERSION: string = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

/** The commit of the repository the run starts in, when there is one. */
export function gitCommit(cwd: string): string | null {
  try {
    return (
      execFileSync('git', ['rev-parse', 'HEAD'], { cwd, stdio: ['ignore', 'pipe', 'ignore'], timeout: 2000 })
        .toString()
        .trim() || null
    );
  } catch {
    return null;
  }
}

// Options and configuration as written to run.json or printed (config/secrets.ts says what is shown).
export { redact } from '../config/secrets.ts';
