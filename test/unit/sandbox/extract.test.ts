// copyOut's extraction fed hand-crafted hostile archives: nothing may land outside dest.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import * as tar from 'tar-stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extractUntrusted } from '../../../src/sandbox/docker/copy.ts';

type Entry = Parameters<tar.Pack['entry']>[0] & { body?: string | Buffer };

function archive(entries: Entry[]): Readable {
  const pack = tar.pack();
  for (const { body, ...header } of entries) pack.entry(header, body ?? '');
  pack.finalize();
  return pack as unknown as Readable;
}

let work: string;
let dest: string;
beforeEach(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-extract-'));
  dest = path.join(work, 'dest');
});
afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

const listAll = (dir: string): string[] => fs.readdirSync(dir, { recursive: true }).map(String).sort();

describe('extractUntrusted', () => {
  it('writes regular files and folders, keeping only the executable bit', async () => {
    const report = await extractUntrusted(
      archive([
        { name: 'a', type: 'directory', mode: 0o777 },
        { name: 'a/run.sh', body: 'echo hi', mode: 0o4777 },
        { name: 'a/data.txt', body: 'data', mode: 0o666 },
      ]),
      dest,
    );
    expect(report).toMatchObject({ files: 2, bytes: 11, skipped: [] });
    expect(fs.readFileSync(path.join(dest, 'a/run.sh'), 'utf8')).toBe('echo hi');
    expect(fs.statSync(path.join(dest, 'a/run.sh')).mode & 0o7777).toBe(0o755);
    expect(fs.statSync(path.join(dest, 'a/data.txt')).mode & 0o7777).toBe(0o644);
  });

  it('skips and reports entries escaping dest, absolute paths, links, devices and fifos', async () => {
    const report = await extractUntrusted(
      archive([
        { name: '../evil', body: 'x' },
        { name: 'ok/../../evil2', body: 'x' },
        { name: '/etc/x', body: 'x' },
        { name: 'passwd', type: 'symlink', linkname: '/etc/passwd' },
        { name: 'hard', type: 'link', linkname: '/etc/shadow' },
        { name: 'null', type: 'character-device', devmajor: 1, devminor: 3 },
        { name: 'pipe', type: 'fifo' },
        { name: 'fine.txt', body: 'fine' },
      ]),
      dest,
    );
    expect(listAll(dest)).toEqual(['fine.txt']);
    expect(fs.existsSync(path.join(work, 'evil'))).toBe(false);
    expect(fs.existsSync(path.join(work, 'evil2'))).toBe(false);
    expect(report.skipped.map((s) => s.path)).toEqual([
      '../evil',
      'ok/../../evil2',
      '/etc/x',
      'passwd',
      'hard',
      'null',
      'pipe',
    ]);
    expect(report.skipped.find((s) => s.path === '/etc/x')?.reason).toMatch(/absolute/);
    expect(report.skipped.find((s) => s.path === 'passwd')?.reason).toMatch(/symlink/);
  });

  it('never writes through a symlink already present in dest', async () => {
    fs.mkdirSync(dest, { recursive: true });
    const outside = path.join(work, 'outside');
    fs.mkdirSync(outside);
    fs.symlinkSync(outside, path.join(dest, 'link'));
    fs.writeFileSync(path.join(outside, 'target'), 'original');
    fs.symlinkSync(path.join(outside, 'target'), path.join(dest, 'file-link'));

    const report = await extractUntrusted(
      archive([
        { name: 'link/planted', body: 'x' },
        { name: 'file-link', body: 'overwritten' },
      ]),
      dest,
    );
    expect(fs.readdirSync(outside)).toEqual(['target']);
    expect(fs.readFileSync(path.join(outside, 'target'), 'utf8')).toBe('original');
    expect(report.skipped).toHaveLength(2);
  });

  it('caps the total bytes written, skipping a file that would pass the cap', async () => {
    const report = await extractUntrusted(
      archive([
        { name: 'small', body: Buffer.alloc(100) },
        { name: 'huge', body: Buffer.alloc(5000) },
        { name: 'small2', body: Buffer.alloc(100) },
      ]),
      dest,
      { maxBytes: 1000 },
    );
    expect(listAll(dest)).toEqual(['small', 'small2']);
    expect(report.bytes).toBe(200);
    expect(report.skipped).toEqual([{ path: 'huge', reason: expect.stringMatching(/1000-byte/) }]);
  });

  it("with stripRoot puts a folder archive's contents, or a single file, directly in dest", async () => {
    await extractUntrusted(
      archive([
        { name: 'out', type: 'directory' },
        { name: 'out/x.txt', body: 'x' },
        { name: 'out/sub/y.txt', body: 'y' },
      ]),
      dest,
      { stripRoot: true },
    );
    await extractUntrusted(archive([{ name: 'single.txt', body: 's' }]), dest, { stripRoot: true });
    expect(listAll(dest)).toEqual(['single.txt', 'sub', 'sub/y.txt', 'x.txt']);
  });

  it('stops past maxEntries: nothing more is written, and what was left is counted', async () => {
    const entries: Entry[] = Array.from({ length: 50 }, (_, i) => ({ name: `f${i}` }));
    const report = await extractUntrusted(archive(entries), dest, { maxEntries: 10 });
    expect(listAll(dest)).toHaveLength(10);
    expect(report.files).toBe(10);
    expect(report.stopped).toBe('stopped after 10 entries (the copy-out limit); 40 more not copied');
  });

  it('stops an archive that never ends when its signal aborts, leaving no half-written file', async () => {
    const pack = tar.pack();
    pack.entry({ name: 'done.txt' }, 'done');
    const slow = pack.entry({ name: 'slow.bin', size: 10 * 1024 * 1024 });
    slow.write(Buffer.alloc(1024)); // and never more: the archive stalls here
    const t0 = Date.now();
    const report = await extractUntrusted(pack as unknown as Readable, dest, { signal: AbortSignal.timeout(300) });
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(report.stopped).toMatch(/^stopped after 2 entries \(.+\); the rest not copied$/);
    expect(listAll(dest)).toEqual(['done.txt']);
  });

  it('skips a path too long or deep for the host, and goes on', async () => {
    const deep = Array.from({ length: 50 }, (_, i) => `${i}`.padEnd(100, 'd')).join('/'); // ~5 KB: past PATH_MAX
    const report = await extractUntrusted(
      archive([
        { name: deep, body: 'x' },
        { name: 'after.txt', body: 'a' },
      ]),
      dest,
    );
    expect(listAll(dest)).toEqual(['after.txt']);
    expect(report.skipped).toEqual([{ path: deep, reason: 'path longer than 1024 bytes' }]);
  });
});
