// Which model patches change test configuration (docs/swebench.md#test-configuration): read from the
// diff alone, file by file; the fixture's and the official-format gold patches are not flagged.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testConfigChanges } from '../../../../src/formats/swebench/test-config.ts';
import { REPO } from '../../../support/cli.ts';
import { fixtureRows } from './helpers.ts';

/** A git diff of one file: `hunk` is its body after the `@@` line (context ' ', removed '-', added '+'). */
function gitDiff(path: string, hunk: string[], kind: 'new' | 'deleted' | 'changed' = 'changed', at = ''): string {
  const old = hunk.filter((l) => !l.startsWith('+')).length;
  const added = hunk.filter((l) => !l.startsWith('-')).length;
  const head =
    kind === 'new'
      ? ['new file mode 100644', '--- /dev/null', `+++ b/${path}`]
      : kind === 'deleted'
        ? ['deleted file mode 100644', `--- a/${path}`, '+++ /dev/null']
        : [`--- a/${path}`, `+++ b/${path}`];
  const range = `@@ -${kind === 'new' ? 0 : 1},${old} +${kind === 'deleted' ? 0 : 1},${added} @@${at}`;
  return [`diff --git a/${path} b/${path}`, 'index 1111111..2222222 100644', ...head, range, ...hunk, ''].join('\n');
}

const flagged = (patch: string) => testConfigChanges(patch).map((c) => c.slice(0, c.indexOf(': ')));

describe('test configuration in a model patch', () => {
  it('flags a conftest.py anywhere (new, changed or deleted), pytest.ini, tox.ini and start-up hooks', () => {
    const conftest = gitDiff('conftest.py', ['+import pytest'], 'new');
    expect(testConfigChanges(conftest)).toEqual([expect.stringMatching(/^conftest\.py: a conftest\.py: /)]);
    expect(flagged(gitDiff('tests/unit/conftest.py', [' import os', '+x = 1']))).toEqual(['tests/unit/conftest.py']);
    expect(flagged(gitDiff('pytest.ini', ['-[pytest]', '-filterwarnings = error'], 'deleted'))).toEqual(['pytest.ini']);
    expect(flagged(gitDiff('tox.ini', [' [tox]', '+envlist = py3']))).toEqual(['tox.ini']);
    for (const f of ['sitecustomize.py', 'src/usercustomize.py', 'lib/evil.pth'])
      expect(flagged(gitDiff(f, ['+import os'], 'new'))).toEqual([f]);
  });

  it('flags setup.cfg and pyproject.toml only where they change pytest settings or register a plugin', () => {
    expect(flagged(gitDiff('setup.cfg', [' [tool:pytest]', ' testpaths = tests', '+addopts = -p hack']))).toEqual([
      'setup.cfg',
    ]);
    expect(testConfigChanges(gitDiff('setup.cfg', [' [tool:pytest]', '+xfail_strict = false']))[0]).toMatch(
      /setup\.cfg: changes its pytest settings \(tool:pytest\)/,
    );
    // The section from the hunk's header line, or, unseen, a pytest option's key.
    expect(flagged(gitDiff('setup.cfg', [' a = 1', '+b = 2'], 'changed', ' [tool:pytest]'))).toEqual(['setup.cfg']);
    expect(flagged(gitDiff('setup.cfg', [' name = calc', '-filterwarnings = error']))).toEqual(['setup.cfg']);
    expect(flagged(gitDiff('setup.cfg', [' [metadata]', ' name = calc', '-version = 1', '+version = 2']))).toEqual([]);
    expect(flagged(gitDiff('setup.cfg', [' [flake8]', '+markers = x']))).toEqual([]);
    expect(flagged(gitDiff('setup.cfg', [' [options.entry_points]', '+pytest11 =', '+    hack = hack']))).toEqual([
      'setup.cfg',
    ]);
    expect(flagged(gitDiff('pyproject.toml', ['+[tool.pytest.ini_options]', '+addopts = "-p hack"']))).toEqual([
      'pyproject.toml',
    ]);
    expect(flagged(gitDiff('pyproject.toml', [' [project]', '-version = "1"', '+version = "2"']))).toEqual([]);
    expect(flagged(gitDiff('pyproject.toml', ['+[project.entry-points.pytest11]', '+hack = "hack"']))).toEqual([
      'pyproject.toml',
    ]);
    expect(flagged(gitDiff('setup.py', [' setup(', '+    entry_points={"pytest11": ["h = h"]},']))).toEqual([
      'setup.py',
    ]);
  });

  it('flags pytest_plugins, and a new module that shadows pytest; not a change to pytest itself', () => {
    expect(flagged(gitDiff('tests/__init__.py', ['+pytest_plugins = ["tests.hack"]']))).toEqual(['tests/__init__.py']);
    expect(flagged(gitDiff('pytest.py', ['+def main(): pass'], 'new'))).toEqual(['pytest.py']);
    expect(flagged(gitDiff('lib/_pytest/__init__.py', ['+x = 1'], 'new'))).toEqual(['lib/_pytest/__init__.py']);
    // The pytest repository's own modules (SWE-bench has its instances): changed, or a new one beside them.
    expect(flagged(gitDiff('src/_pytest/__init__.py', [' x = 1', '+y = 2']))).toEqual([]);
    expect(flagged(gitDiff('src/_pytest/newmod.py', ['+x = 1'], 'new'))).toEqual([]);
  });

  it('reads several files, plain unified diffs and hunks by their counts; code changes are not flagged', () => {
    const code = gitDiff('calc/ops.py', [' def mul(a, b):', '-    return a + b', '+    return a * b']);
    // A hunk whose lines look like file headers is still one hunk.
    const doc = gitDiff('README.md', ['-- conftest.py', '++ conftest.py']);
    expect(flagged(code + doc)).toEqual([]);
    const plain = '--- a/conftest.py\t2024-01-01\n+++ b/conftest.py\t2024-01-01\n@@ -1 +1,2 @@\n x\n+y\n';
    expect(flagged(code + plain + gitDiff('tox.ini', ['+[pytest]'], 'new'))).toEqual(['conftest.py', 'tox.ini']);
    const renamed = [
      'diff --git a/hack.py b/pytest.py',
      'similarity index 100%',
      'rename from hack.py',
      'rename to pytest.py',
      '',
    ].join('\n');
    expect(flagged(renamed)).toEqual(['pytest.py']);
  });

  it('flags a quoted path, and a file the --- and +++ lines name under a diff --git line naming another', () => {
    const quoted = '--- "a/t\\303\\251sts/conftest.py"\n+++ "b/t\\303\\251sts/conftest.py"\n@@ -1 +1,2 @@\n x\n+y\n';
    expect(flagged(quoted)).toEqual(['t\\303\\251sts/conftest.py']);
    // git apply changes conftest.py here: the --- and +++ lines decide.
    const disguised = 'diff --git a/ok.py b/ok.py\n--- a/conftest.py\n+++ b/conftest.py\n@@ -1 +1,2 @@\n a\n+b\n';
    expect(flagged(disguised)).toEqual(['conftest.py']);
  });

  it('flags none of the gold patches of the fixtures', () => {
    const calc = readFileSync(join(REPO, 'test/fixtures/swebench-run/dataset.jsonl'), 'utf8').trim().split('\n');
    const gold = [...calc.map((l) => JSON.parse(l) as { patch: string }), ...fixtureRows()].map((r) => r.patch);
    expect(gold.length).toBeGreaterThan(2);
    for (const p of gold) expect(testConfigChanges(String(p))).toEqual([]);
  });
});
