// The one reader of a diff's files (src/formats/swebench/diff-files.ts): the paths each header writes,
// new, deleted, renamed and quoted files, plain unified diffs, and hunks read by their counts.
import { describe, expect, it } from 'vitest';
import { barePath, fileDiffs } from '../../../../src/formats/swebench/diff-files.ts';
import { fixtureText } from './helpers.ts';

const heads = (patch: string) => fileDiffs(patch).map(({ source, target, isNew }) => ({ source, target, isNew }));

describe("a diff's files", () => {
  it('reads changed, deleted and renamed files of a git diff by their headers, prefixes kept', () => {
    expect(heads(fixtureText('patches/delete-and-rename.diff'))).toEqual([
      { source: 'a/tests/old_test.py', target: '/dev/null', isNew: false },
      { source: 'a/tests/test_a.py', target: 'b/tests/test_b.py', isNew: true },
    ]);
    const pureRename = 'diff --git a/x.py b/y.py\nsimilarity index 100%\nrename from x.py\nrename to y.py\n';
    const copy = 'diff --git a/x.py b/z.py\nsimilarity index 100%\ncopy from x.py\ncopy to z.py\n';
    const modeOnly = 'diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n';
    expect(heads(pureRename + copy + modeOnly)).toEqual([
      { source: 'a/x.py', target: 'b/y.py', isNew: true },
      { source: 'a/x.py', target: 'b/z.py', isNew: true },
      { source: 'a/run.sh', target: 'b/run.sh', isNew: false },
    ]);
  });

  it('takes a new file from /dev/null, with or without its lines', () => {
    const empty = 'diff --git a/e.py b/e.py\nnew file mode 100644\nindex 0000000..e69de29\n';
    const full = 'diff --git a/n.py b/n.py\nnew file mode 100644\n--- /dev/null\n+++ b/n.py\n@@ -0,0 +1 @@\n+x = 1\n';
    const plain = '--- /dev/null\n+++ b/p.py\n@@ -0,0 +1 @@\n+y\n';
    expect(heads(empty + full + plain)).toEqual([
      { source: '/dev/null', target: 'b/e.py', isNew: true },
      { source: '/dev/null', target: 'b/n.py', isNew: true },
      { source: '/dev/null', target: 'b/p.py', isNew: true },
    ]);
  });

  it('reads a plain unified diff, timestamps cut at the tab, and one without prefixes', () => {
    const plain = '--- a/x.py\t2024-01-01 10:00\n+++ b/x.py\t2024-01-01 11:00\n@@ -1 +1 @@\n-a\n+b\n';
    const noPrefix = 'diff --git x.py x.py\n--- x.py\n+++ x.py\n@@ -1 +1 @@\n-a\n+b\n';
    expect(heads(plain + noPrefix)).toEqual([
      { source: 'a/x.py', target: 'b/x.py', isNew: false },
      { source: 'x.py', target: 'x.py', isNew: false },
    ]);
  });

  it('keeps quoted paths as written, a quoted rename included; barePath drops the quotes and the prefix', () => {
    const quoted = [
      'diff --git "a/t\\303\\251st/x y.py" "b/t\\303\\251st/x y.py"',
      '--- "a/t\\303\\251st/x y.py"',
      '+++ "b/t\\303\\251st/x y.py"',
      '@@ -1 +1 @@',
      '-a',
      '+b',
      'diff --git "a/x y.py" b/z.py',
      'rename from "x y.py"',
      'rename to z.py',
      'diff --git a/q.py "b/q\\"uote.py"',
      'rename from q.py',
      'rename to "q\\"uote.py"',
      '',
    ].join('\n');
    expect(heads(quoted)).toEqual([
      { source: '"a/t\\303\\251st/x y.py"', target: '"b/t\\303\\251st/x y.py"', isNew: false },
      { source: '"a/x y.py"', target: 'b/z.py', isNew: true },
      { source: 'a/q.py', target: '"b/q\\"uote.py"', isNew: true },
    ]);
    expect(['"a/x y.py"', 'b/z.py', '/dev/null', 'x.py'].map(barePath)).toEqual([
      'x y.py',
      'z.py',
      '/dev/null',
      'x.py',
    ]);
  });

  it("splits two unquoted paths at the last ' b/', as unidiff does", () => {
    expect(heads('diff --git a/x b/y b/z\nold mode 100644\nnew mode 100755\n')).toEqual([
      { source: 'a/x b/y', target: 'b/z', isNew: false },
    ]);
  });

  it('names every path its headers write when the --- and +++ lines disagree with diff --git', () => {
    const [f] = fileDiffs('diff --git a/ok.py b/ok.py\n--- a/conftest.py\n+++ b/conftest.py\n@@ -1 +1,2 @@\n a\n+b\n');
    expect(f?.names).toEqual(['a/ok.py', 'b/ok.py', 'a/conftest.py', 'b/conftest.py']);
    expect([f?.source, f?.target]).toEqual(['a/conftest.py', 'b/conftest.py']);
  });

  it('reads a hunk by its counts: lines that look like headers stay in it; its heading; no-newline markers left out', () => {
    const patch = [
      'diff --git a/r.md b/r.md',
      '--- a/r.md',
      '+++ b/r.md',
      '@@ -1,3 +1,3 @@ [tool:pytest]',
      '-- a/conftest.py',
      '++ b/conftest.py',
      '+diff --git a/evil.py b/evil.py',
      ' x',
      '-y',
      '\\ No newline at end of file',
      'diff --git a/s.py b/s.py',
      '--- a/s.py',
      '+++ b/s.py',
      '@@ -1 +1 @@',
      '-a',
      '+b',
      '',
    ].join('\n');
    const files = fileDiffs(patch);
    expect(files.map((f) => f.target)).toEqual(['b/r.md', 'b/s.py']);
    expect(files[0]?.hunks).toEqual([
      {
        heading: '[tool:pytest]',
        lines: ['-- a/conftest.py', '++ b/conftest.py', '+diff --git a/evil.py b/evil.py', ' x', '-y'],
      },
    ]);
    expect(files[1]?.hunks).toEqual([{ heading: '', lines: ['-a', '+b'] }]);
  });

  it('skips a hunk before any file header', () => {
    expect(fileDiffs('@@ -1,2 +1,2 @@\n---- a/x\n++++ b/x\n')).toEqual([]);
  });
});
