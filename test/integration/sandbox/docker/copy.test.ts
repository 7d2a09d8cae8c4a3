import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerProvider, type DockerSandbox } from '../../../../src/sandbox/docker/sandbox.ts';
import { benchrigContainers, requireDocker, testRunId, testSpec } from '../../../support/docker.ts';

const ok = await requireDocker();
const runId = testRunId('copy');

describe.skipIf(!ok)('DockerSandbox file copies', () => {
  const provider = new DockerProvider();
  let sb: DockerSandbox;
  let host: string;

  beforeAll(async () => {
    host = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-copy-'));
    sb = await provider.start(testSpec(), { runId, sessionId: `${runId}-1` });
  });
  afterAll(async () => {
    if (sb) await provider.stop(sb, { interrupted: false });
    fs.rmSync(host, { recursive: true, force: true });
    expect(await benchrigContainers(runId)).toEqual([]);
  });

  it('copies a host folder in, root-owned, keeping the executable bit, creating parents', async () => {
    const src = path.join(host, 'src');
    fs.mkdirSync(path.join(src, 'bin'), { recursive: true });
    fs.mkdirSync(path.join(src, 'empty'));
    fs.writeFileSync(path.join(src, 'bin/run.sh'), '#!/bin/sh\necho ran\n', { mode: 0o700 });
    fs.writeFileSync(path.join(src, 'notes.txt'), 'notes', { mode: 0o600 });

    await sb.copyIn(src, 'deep/er'); // relative to the workdir
    const res = await sb.exec("stat -c '%a %u %g %n' deep deep/er deep/er/bin/run.sh deep/er/notes.txt deep/er/empty");
    expect(res.stdout.trim().split('\n')).toEqual([
      '755 0 0 deep',
      '755 0 0 deep/er',
      '755 0 0 deep/er/bin/run.sh',
      '644 0 0 deep/er/notes.txt',
      '755 0 0 deep/er/empty',
    ]);
    expect((await sb.exec('deep/er/bin/run.sh')).stdout).toBe('ran\n');
  });

  it("copies a map of relative paths in without disturbing an existing folder's mode", async () => {
    await sb.copyIn({ 'a/b.txt': 'bee', 'c.bin': new Uint8Array([0, 1, 2]) }, '/tmp/drop');
    expect((await sb.exec('cat /tmp/drop/a/b.txt; wc -c < /tmp/drop/c.bin')).stdout).toBe('bee3\n');
    expect((await sb.exec("stat -c '%a' /tmp")).stdout.trim()).toBe('1777');
  });

  it('writes and reads files, relative to the workdir, following symlinks', async () => {
    await sb.writeFile('notes/hello.txt', 'héllo\n');
    expect((await sb.exec('cat /workspace/notes/hello.txt')).stdout).toBe('héllo\n');
    expect(await sb.readFile('/workspace/notes/hello.txt')).toBe('héllo\n');
    await sb.exec('ln -s hello.txt notes/link');
    expect(await sb.readFile('notes/link')).toBe('héllo\n');
    await expect(sb.readFile('missing.txt')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('copies a folder out: contents into dest, files and folders only', async () => {
    await sb.exec('mkdir -p out/sub && echo one > out/one.txt && echo two > out/sub/two.txt && chmod +x out/one.txt');
    await sb.exec('ln -s /etc/passwd out/passwd && ln -s /etc out/etc-dir && mkfifo out/fifo');
    const dest = path.join(host, 'out');
    const report = await sb.copyOut('out', dest);

    const files = fs.readdirSync(dest, { recursive: true }).map(String).sort();
    expect(files).toEqual(['one.txt', 'sub', 'sub/two.txt']);
    expect(fs.readFileSync(path.join(dest, 'sub/two.txt'), 'utf8')).toBe('two\n');
    expect(fs.statSync(path.join(dest, 'one.txt')).mode & 0o777).toBe(0o755);
    expect(report.skipped.map((s) => s.path).sort()).toEqual(['out/etc-dir', 'out/fifo', 'out/passwd']);
  });

  it('copies a single file out as dest/<name>, and caps the bytes', async () => {
    await sb.exec('head -c 4096 /dev/zero > big.bin && echo small > small.txt');
    const dest = path.join(host, 'single');
    await sb.copyOut('small.txt', dest);
    expect(fs.readFileSync(path.join(dest, 'small.txt'), 'utf8')).toBe('small\n');

    const capped = await sb.copyOut('big.bin', path.join(host, 'capped'), { maxBytes: 1000 });
    expect(fs.existsSync(path.join(host, 'capped/big.bin'))).toBe(false);
    expect(capped.skipped).toEqual([{ path: 'big.bin', reason: expect.stringMatching(/limit/) }]);
  });

  it('stops a folder of 30,000 empty files at 10,000 entries, quickly, and a deadline stops it sooner', async () => {
    expect((await sb.exec('mkdir flood && cd flood && seq 1 30000 | xargs touch && ls | wc -l')).stdout.trim()).toBe(
      '30000',
    );
    const count = (dir: string) => fs.readdirSync(dir).length;

    let t0 = Date.now();
    const bounded = await sb.copyOut('flood', path.join(host, 'flood'));
    expect(Date.now() - t0).toBeLessThan(30_000); // all 30,000 took ~30 s here; 10,000 take ~10
    expect(count(path.join(host, 'flood'))).toBe(9_999); // the archive's first entry is the folder itself
    expect(bounded.stopped).toBe('stopped after 10000 entries (the copy-out limit); 20001 more not copied');

    t0 = Date.now();
    const late = await sb.copyOut('flood', path.join(host, 'late'), { deadlineMs: 500 });
    expect(Date.now() - t0).toBeLessThan(3_000);
    expect(late.stopped).toMatch(
      /^stopped after \d+ entries \(the copy-out deadline of 0\.5 s passed\); the rest not copied$/,
    );
    expect(count(path.join(host, 'late'))).toBeLessThan(9_999);
  }, 60_000);
});
