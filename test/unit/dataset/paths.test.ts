// Where a sample's files may land and come from: real folders and symlinks in a temp benchmark.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { badFileKey, badFolder, badWorkdir } from '../../../src/dataset/paths.ts';

const root = mkdtempSync(path.join(tmpdir(), 'benchrig-paths-'));
const bench = path.join(root, 'bench');
afterAll(() => rmSync(root, { recursive: true, force: true }));
mkdirSync(path.join(bench, 'files/a/b'), { recursive: true });
writeFileSync(path.join(bench, 'files/a/b/x.txt'), 'x');
writeFileSync(path.join(root, 'outside.txt'), 'host file');

describe('badFileKey', () => {
  it('accepts paths inside the destination, refuses the rest', () => {
    for (const ok of ['x.txt', 'a/b/c.sh', './x', 'a/../b', '.hidden']) expect(badFileKey(ok), ok).toBeNull();
    expect(badFileKey('../x')).toMatch(/leads outside/);
    expect(badFileKey('a/../../x')).toMatch(/leads outside/);
    expect(badFileKey('..\\..\\x')).toMatch(/leads outside/);
    expect(badFileKey('..')).toMatch(/leads outside/);
    expect(badFileKey('/etc/passwd')).toMatch(/absolute/);
    expect(badFileKey('C:\\x')).toMatch(/absolute/);
    expect(badFileKey('.')).toMatch(/destination folder itself/);
    expect(badFileKey(' ')).toMatch(/empty/);
  });
});

describe('badWorkdir', () => {
  it('wants an absolute path without ".."', () => {
    expect(badWorkdir('/workspace')).toBeNull();
    expect(badWorkdir('/')).toBeNull();
    expect(badWorkdir('workspace')).toMatch(/not an absolute path/);
    expect(badWorkdir('/w/../etc')).toMatch(/"\.\." segment/);
  });
});

describe('badFolder', () => {
  it('accepts a folder inside the benchmark, and symlinks that stay inside it', () => {
    symlinkSync('../../x.txt', path.join(bench, 'files/a/b/up-but-inside'));
    symlinkSync('a/b', path.join(bench, 'files/link-to-dir'));
    expect(badFolder(bench, 'files')).toBeNull();
    expect(badFolder(bench, 'files/a')).toBeNull();
  });

  it('refuses missing, non-folder, absolute and outside paths', () => {
    expect(badFolder(bench, 'nope')).toMatch(/does not exist/);
    expect(badFolder(bench, 'files/a/b/x.txt')).toMatch(/not a folder/);
    expect(badFolder(bench, root)).toMatch(/absolute path/);
    expect(badFolder(bench, '..')).toMatch(/outside the benchmark folder/);
  });

  it('refuses a folder that is a symlink out, and one holding a link out (dangling or through another link)', () => {
    symlinkSync(root, path.join(bench, 'escape'));
    expect(badFolder(bench, 'escape')).toMatch(/leads outside the benchmark folder \(it is a symlink\)/);
    mkdirSync(path.join(bench, 'sneaky/deep'), { recursive: true });
    symlinkSync('/nonexistent/secret', path.join(bench, 'sneaky/deep/dangling'));
    expect(badFolder(bench, 'sneaky')).toMatch(/deep\/dangling -> \/nonexistent\/secret/);
    // a link that looks inside, to a link inside that leads out
    mkdirSync(path.join(bench, 'relay'));
    symlinkSync('../escape/outside.txt', path.join(bench, 'relay/hop'));
    expect(badFolder(bench, 'relay')).toMatch(/hop -> \.\.\/escape\/outside\.txt/);
  });
});
