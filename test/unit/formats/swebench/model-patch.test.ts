// The model patch script (docs/swebench.md#the-model-patch) run with the real git on a real
// repository and a copy of its work tree (as the agent's tree is copied, less `.git`): changes, new,
// deleted and binary files against base_commit; the repository is only read; settings that would
// run a command (an external diff, fsmonitor) run nothing.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelPatchScript } from '../../../../src/formats/swebench/model-patch.ts';

const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.invalid',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

function repo() {
  const dir = mkdtempSync(join(tmpdir(), 'benchrig-patch-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' });
  writeFileSync(join(dir, 'a.py'), 'x = 1\n');
  writeFileSync(join(dir, 'gone.py'), 'y = 2\n');
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'base');
  return { dir, git, base: git('rev-parse', 'HEAD').trim() };
}

/** The work tree as the trial copies it (everything but `.git`), diffed against the repository. */
function diff(dir: string, base: string): string {
  const tree = mkdtempSync(join(tmpdir(), 'benchrig-tree-'));
  try {
    cpSync(dir, tree, { recursive: true, filter: (src) => src !== join(dir, '.git') });
    return execFileSync('sh', ['-c', modelPatchScript(base, tree, dir)], { encoding: 'utf8' });
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}

const objects = (dir: string) => readdirSync(join(dir, '.git', 'objects'), { recursive: true }).sort();

describe('modelPatchScript', () => {
  it('diffs every change against base_commit: edits, new and deleted files, commits, binary files as such', () => {
    const { dir, git, base } = repo();
    try {
      writeFileSync(join(dir, 'a.py'), 'x = 2\n');
      git('commit', '-qam', 'the agent commits');
      const before = { objects: objects(dir), index: readFileSync(join(dir, '.git', 'index')) };
      writeFileSync(join(dir, 'new.py'), 'z = 3\n');
      rmSync(join(dir, 'gone.py'));
      writeFileSync(join(dir, 'blob.bin'), Buffer.from([0, 1, 2, 0, 255]));
      const patch = diff(dir, base);
      expect(patch).toContain('-x = 1\n+x = 2');
      expect(patch).toContain('new file mode 100644');
      expect(patch).toContain('+z = 3');
      expect(patch).toContain('deleted file mode 100644');
      expect(patch).toMatch(/Binary files \/dev\/null and b\/blob.bin differ/);
      // The repository is only read: its index and objects are as they were.
      expect(git('status', '--porcelain')).toContain('?? new.py');
      expect(objects(dir)).toEqual(before.objects);
      expect(readFileSync(join(dir, '.git', 'index'))).toEqual(before.index);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("runs nothing the repository's settings name (an external diff, a text conversion, fsmonitor)", () => {
    const { dir, git, base } = repo();
    try {
      const marker = join(dir, '..', `ran-${process.pid}`);
      const cmd = `sh -c 'touch ${marker}'`;
      git('config', 'diff.external', cmd);
      git('config', 'core.fsmonitor', cmd);
      git('config', 'diff.x.textconv', cmd);
      writeFileSync(join(dir, '.gitattributes'), '*.py diff=x\n');
      writeFileSync(join(dir, 'a.py'), 'x = 5\n');
      expect(diff(dir, base)).toContain('+x = 5');
      expect(existsSync(marker)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a tracked file that .gitignore names stays tracked (not read as deleted); a tree that is a symlink is refused', () => {
    const { dir, git, base } = repo();
    try {
      writeFileSync(join(dir, '.gitignore'), 'gone.py\n');
      git('add', '.gitignore');
      git('commit', '-qm', 'ignore a tracked file');
      const head = git('rev-parse', 'HEAD').trim();
      expect(diff(dir, head)).toBe('');
      expect(diff(dir, base)).not.toContain('deleted file');
      const link = join(tmpdir(), `benchrig-link-${process.pid}`);
      symlinkSync(dir, link);
      try {
        expect(() => execFileSync('sh', ['-c', modelPatchScript(base, link, dir)], { stdio: 'pipe' })).toThrow(
          /not a folder/,
        );
      } finally {
        rmSync(link);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
