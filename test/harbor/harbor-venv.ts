// Harbor (PyPI `harbor`, pinned) in a venv of the benchrig cache, installed once and reused
// (docs/export.md#checking-an-export): its ATIF validator and its viewer read what `benchrig export`
// writes. Harbor needs Python >= 3.12: BENCHRIG_PYTHON312, python3.13 or python3.12 on PATH, or pyenv's.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

export const HARBOR_VERSION = '0.26.0';

export function venvDir(): string {
  const cache = process.env.BENCHRIG_CACHE || '/var/cache/benchrig';
  return path.join(cache, 'peers', `harbor-${HARBOR_VERSION}`);
}

function basePython(): string {
  const pyenv = path.join(process.env.PYENV_ROOT || '/root/.pyenv', 'versions');
  const candidates = [
    process.env.BENCHRIG_PYTHON312,
    'python3.13',
    'python3.12',
    ...(existsSync(pyenv)
      ? readdirSync(pyenv)
          .filter((v) => /^3\.(1[2-9])\./.test(v))
          .map((v) => path.join(pyenv, v, 'bin', 'python3'))
      : []),
  ].filter((c): c is string => !!c);
  for (const c of candidates) {
    try {
      execFileSync(c, ['-c', 'import sys, venv; sys.exit(0 if sys.version_info >= (3, 12) else 1)'], {
        stdio: 'ignore',
      });
      return c;
    } catch {
      /* the next one */
    }
  }
  throw new Error('Harbor needs Python >= 3.12 with venv: set BENCHRIG_PYTHON312 to one');
}

/** The venv's bin folder, Harbor installed first if it is not. */
export function harborBin(): string {
  const dir = venvDir();
  const python = path.join(dir, 'bin', 'python');
  if (!existsSync(python)) execFileSync(basePython(), ['-m', 'venv', dir], { stdio: 'inherit' });
  if (!installed(python))
    execFileSync(
      python,
      ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', `harbor==${HARBOR_VERSION}`],
      {
        stdio: 'inherit',
      },
    );
  return path.join(dir, 'bin');
}

function installed(python: string): boolean {
  const check = `import importlib.metadata as m, sys; sys.exit(0 if m.version('harbor') == '${HARBOR_VERSION}' else 1)`;
  try {
    execFileSync(python, ['-c', check], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
