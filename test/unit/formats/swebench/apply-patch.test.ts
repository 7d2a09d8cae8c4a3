// The official apply sequence, run for real: sh, git and patch on a throwaway repository.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPatchScript } from '../../../../src/formats/swebench/apply-patch.ts';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function repo(files: Record<string, string>): string {
  dir = mkdtempSync(path.join(tmpdir(), 'benchrig-apply-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  git('add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'base');
  return dir;
}

function apply(patch: string): { code: number | null; out: string; stdout: string } {
  const file = path.join(dir, '..', `${path.basename(dir)}.diff`);
  writeFileSync(file, patch);
  const r = spawnSync('sh', ['-c', applyPatchScript(file, dir)], { encoding: 'utf8' });
  rmSync(file, { force: true });
  return { code: r.status, out: r.stdout + r.stderr, stdout: r.stdout };
}

const LINES = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('applying a model patch', () => {
  it('applies a clean patch with the first command', () => {
    repo({ 'a.txt': LINES });
    const r = apply('--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n line 1\n-line 2\n+line two\n line 3\n');
    expect(r).toMatchObject({ code: 0 });
    expect(r.out).toContain('>>>>> Applied Patch: git apply --verbose\n');
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toContain('line two\n');
  });

  it('falls through to patch --fuzz when git apply cannot place a hunk, after resetting the tree', () => {
    repo({ 'a.txt': LINES.replace('line 1\n', 'line one\n') });
    // Its context differs from the file in one line: git apply refuses, patch applies it with fuzz.
    const r = apply('--- a/a.txt\n+++ b/a.txt\n@@ -1,4 +1,4 @@\n line 1\n line 2\n-line 3\n+line three\n line 4\n');
    expect(r.code).toBe(0);
    expect(r.out).toContain('>>>>> Applied Patch: patch --batch --forward --fuzz=5 -p1 -i');
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toContain('line three\n');
  });

  it('fails with the official marker when nothing applies, leaving no half-applied change from --reject', () => {
    repo({ 'a.txt': LINES });
    const r = apply('--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n nothing like this\n-at all\n+here\n');
    expect(r.code).toBe(1);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('>>>>> Patch Apply Failed');
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe(LINES);
  });

  it('counts a patch that is already applied as applied (the reverse check)', () => {
    repo({ 'a.txt': LINES.replace('line 2\n', 'line two\n') });
    const r = apply('--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n line 1\n-line 2\n+line two\n line 3\n');
    expect(r.code).toBe(0);
    expect(r.out).toContain('>>>>> Applied Patch: verified already applied');
  });
});
