// The pieces of `[sandbox] disk` that need no daemon: sizes, the limit error, the quota decision
// and the host walk of a writable layer (on a real temp folder).
import { spawnSync } from 'node:child_process';
import { buildSync } from 'esbuild';
import { chmodSync, linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LimitExceeded } from '../../../../src/errors.ts';
import { driverMayQuota, quotaBytes } from '../../../../src/sandbox/docker/disk-quota.ts';
import { treeUsage } from '../../../../src/sandbox/docker/disk-usage.ts';
import { DiskLimitExceeded, formatBytes, parseDisk } from '../../../../src/sandbox/docker/disk.ts';

const MiB = 1024 ** 2;

describe('parseDisk', () => {
  it('reads the sizes [sandbox] memory takes, and terabytes', () => {
    expect(parseDisk('20m')).toBe(20 * MiB);
    expect(parseDisk('10g')).toBe(10 * 1024 ** 3);
    expect(parseDisk('1.5G')).toBe(1.5 * 1024 ** 3);
    expect(parseDisk('1t')).toBe(1024 ** 4);
  });
  it('names the value it cannot read', () => {
    expect(() => parseDisk('big')).toThrow(/"big"/);
  });
});

describe('DiskLimitExceeded', () => {
  it('is the disk limit, with both sizes and the setting in its message', () => {
    const e = new DiskLimitExceeded(52 * MiB + 300, 20 * MiB, '20m');
    expect(e).toBeInstanceOf(LimitExceeded);
    expect([e.limitKind, e.value, e.limit]).toEqual(['disk', 52 * MiB + 300, 20 * MiB]);
    expect(e.message).toBe(
      'the sandbox wrote 52.0 MiB, past its disk limit of 20.0 MiB ([sandbox] disk = "20m"); the trial was stopped',
    );
  });
  it('formats sizes for people', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3.0 GiB');
  });
});

describe('the storage quota decision', () => {
  it('probes only drivers that can take StorageOpt size', () => {
    // this machine's daemon: overlay2 on ext4 refuses --storage-opt, so it is never even probed
    expect(
      driverMayQuota({
        Driver: 'overlay2',
        DriverStatus: [
          ['Backing Filesystem', 'extfs'],
          ['Supports d_type', 'true'],
        ],
      }),
    ).toBe(false);
    expect(driverMayQuota({ Driver: 'overlay2', DriverStatus: [['Backing Filesystem', 'xfs']] })).toBe(true);
    expect(driverMayQuota({ Driver: 'btrfs' })).toBe(true);
    expect(driverMayQuota({ Driver: 'zfs' })).toBe(true);
    expect(driverMayQuota({ Driver: 'vfs' })).toBe(false);
    expect(driverMayQuota({})).toBe(false);
  });
  it('puts the wall above the bound, so the watch sees the bound passed before writes fail', () => {
    expect(quotaBytes(20 * MiB)).toBe(84 * MiB);
    expect(quotaBytes(10 * 1024 ** 3)).toBe(Math.round(10 * 1024 ** 3 * 1.05));
  });
});

describe('treeUsage', () => {
  const root = mkdtempSync(join(tmpdir(), 'benchrig-disk-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('counts files in nested folders, hard links once, and never follows a symlink', async () => {
    const dir = join(root, 'a');
    mkdirSync(join(dir, 'deep/er'), { recursive: true });
    writeFileSync(join(dir, 'deep/er/one'), Buffer.alloc(3 * MiB, 1));
    linkSync(join(dir, 'deep/er/one'), join(dir, 'hard'));
    symlinkSync('/usr', join(dir, 'usr')); // an agent pointing at the host's files
    const u = await treeUsage(dir);
    expect(u.complete).toBe(true);
    expect(u.entries).toBe(5);
    expect(u.bytes).toBeGreaterThanOrEqual(3 * MiB);
    expect(u.bytes).toBeLessThan(3 * MiB + 64 * 1024); // the file once, plus folders and the link
  });

  it('counts a sparse file by its length, as Docker SizeRw does', async () => {
    const dir = join(root, 'b');
    mkdirSync(dir);
    writeFileSync(join(dir, 'sparse'), '');
    truncateSync(join(dir, 'sparse'), 1024 ** 3);
    expect((await treeUsage(dir)).bytes).toBeGreaterThanOrEqual(1024 ** 3);
  });

  it('stops at the entry cap and says its count is a lower bound', async () => {
    const dir = join(root, 'c');
    mkdirSync(dir);
    for (let i = 0; i < 200; i++) writeFileSync(join(dir, `f${i}`), 'x');
    const whole = await treeUsage(dir);
    expect(whole).toMatchObject({ complete: true, entries: 200 });
    const capped = await treeUsage(dir, 50);
    expect(capped.complete).toBe(false);
    expect(capped.entries).toBeLessThanOrEqual(50);
  });

  it('says its count is a lower bound when it may not read a folder (an agent hiding files from a harness not run as root)', async () => {
    const dir = join(root, 'd');
    mkdirSync(join(dir, 'hidden'), { recursive: true });
    writeFileSync(join(dir, 'hidden/big'), Buffer.alloc(MiB));
    chmodSync(root, 0o755);
    chmodSync(join(dir, 'hidden'), 0o000);
    try {
      // root reads everything: walk as nobody then, in a child process
      const u = process.getuid?.() === 0 ? walkAsNobody(dir, root) : await treeUsage(dir);
      expect(u.complete).toBe(false);
    } finally {
      chmodSync(join(dir, 'hidden'), 0o755);
    }
  });

  it('treats a folder that is gone as empty', async () => {
    expect(await treeUsage(join(root, 'never-made'))).toEqual({ bytes: 0, entries: 0, complete: true });
  });
});

/**
 * The walk in a child process as nobody. The module is bundled into the world-readable test folder
 * first: nobody may not be able to read the repository (a clone in a 0700 folder).
 */
function walkAsNobody(dir: string, root: string) {
  const bundle = join(root, 'disk-usage.mjs');
  buildSync({
    entryPoints: [resolve(import.meta.dirname, '../../../../src/sandbox/docker/disk-usage.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: bundle,
    external: ['dockerode'],
    logLevel: 'silent',
  });
  chmodSync(bundle, 0o644);
  const code = `import(${JSON.stringify(bundle)}).then(async (m) => console.log(JSON.stringify(await m.treeUsage(process.argv[1]))))`;
  const r = spawnSync(process.execPath, ['-e', code, dir], { uid: 65534, gid: 65534, encoding: 'utf8', cwd: '/' });
  if (r.status !== 0) throw new Error(`walk as nobody failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}
