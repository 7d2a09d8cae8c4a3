// The official swebench package in a venv of the benchrig cache, installed once and reused
// (docs/swebench.md#parity): `pip install --no-deps` of the pinned release and of unidiff, the one
// third-party module its grading and parsers import; nothing else it depends on is needed here.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export const SWEBENCH_VERSION = '5.0.2';
const PACKAGES = [`swebench==${SWEBENCH_VERSION}`, 'unidiff==0.7.5'];

export function venvDir(): string {
  const cache = process.env.BENCHRIG_CACHE || '/var/cache/benchrig';
  return path.join(cache, 'peers', `swebench-${SWEBENCH_VERSION}`);
}

/** The venv's python, the packages installed first if they are not; `ms` is how long that took. */
export function officialPython(): { python: string; ms: number } {
  const started = Date.now();
  const dir = venvDir();
  const python = path.join(dir, 'bin', 'python');
  if (!existsSync(python)) execFileSync('python3', ['-m', 'venv', dir], { stdio: 'inherit' });
  if (!installed(python)) {
    execFileSync(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-deps', ...PACKAGES], {
      stdio: 'inherit',
    });
  }
  return { python, ms: Date.now() - started };
}

function installed(python: string): boolean {
  const check = `import importlib.metadata as m; import sys; sys.exit(0 if m.version('swebench') == '${SWEBENCH_VERSION}' and m.version('unidiff') == '0.7.5' else 1)`;
  try {
    execFileSync(python, ['-c', check], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The driver's answers to a request (JSON in on stdin, JSON out on stdout). */
export function askOfficial(python: string, request: unknown): unknown {
  const driver = path.join(import.meta.dirname, 'swebench_driver.py');
  const out = execFileSync(python, [driver], { input: JSON.stringify(request), maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(out.toString('utf8')) as unknown;
}
