import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Environment } from '../../../../src/sandbox/provider.ts';
import type { Cluster } from '../../../../src/sandbox/kubernetes/client.ts';
import { startEnvironment, stopEnvironment } from '../../../../src/sandbox/kubernetes/environments.ts';
import { openExec } from '../../../../src/sandbox/kubernetes/exec-socket.ts';
import type { Sandbox } from '../../../../src/sandbox/types.ts';
import { TEST_IMAGE, testRunId, testSpec } from '../../../support/docker.ts';
import { pushImage, requireCluster } from '../../../support/kubernetes.ts';

const runId = testRunId('k8s-copy');

describe('copies and transfer by tar over exec on the local cluster', () => {
  let cluster: Cluster;
  let a: Environment | undefined;
  let b: Environment | undefined;
  let tmp: string;
  const main = (env: Environment | undefined): Sandbox => {
    if (!env) throw new Error('no environment');
    return env.main;
  };

  beforeAll(async () => {
    cluster = await requireCluster();
    const image = pushImage(TEST_IMAGE);
    const start = (n: number) =>
      startEnvironment(
        cluster,
        testSpec({ image }),
        { runId, sessionId: `${runId}-${n}` },
        { image, deadlineSeconds: 600 },
      );
    [a, b] = await Promise.all([start(1), start(2)]);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'k8s-copy-'));
  }, 300_000);
  afterAll(async () => {
    await Promise.all([a, b].map((env) => (env ? stopEnvironment(cluster, env) : Promise.resolve())));
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('copies a host folder and a map of files in, keeping only the executable bit', async () => {
    const src = path.join(tmp, 'in');
    fs.mkdirSync(path.join(src, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(src, 'run.sh'), '#!/bin/sh\necho ran\n', { mode: 0o700 });
    fs.writeFileSync(path.join(src, 'sub', 'data.bin'), Buffer.alloc(300_000, 7));
    const s = main(a);
    await s.copyIn(src, '/workspace/task');
    await s.copyIn({ 'notes/a.txt': 'alpha', 'b.txt': new Uint8Array([104, 105]) }, 'more');
    const ls = await s.exec('stat -c "%a %s %n" task/run.sh task/sub/data.bin more/notes/a.txt more/b.txt');
    expect(ls.stdout.split('\n').filter(Boolean)).toEqual([
      '755 19 task/run.sh',
      '644 300000 task/sub/data.bin',
      '644 5 more/notes/a.txt',
      '644 2 more/b.txt',
    ]);
    expect((await s.exec('./task/run.sh')).stdout).toBe('ran\n');
    await s.writeFile('/tmp/deep/w.txt', 'written');
    expect(await s.readFile('/tmp/deep/w.txt')).toBe('written');
    await expect(s.readFile('nope.txt')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('copies out regular files and folders only, within the byte cap, and says what it skipped', async () => {
    const s = main(a);
    // The agent's tree: a symlink to a host-looking path, a fifo, a file over the cap.
    const plant =
      'mkdir -p out/d && echo keep > out/d/k.txt && ln -s /etc/passwd out/link && mkfifo out/pipe && ' +
      'head -c 200000 /dev/zero > out/big.bin && echo small > out/s.txt';
    expect((await s.exec(plant)).exitCode).toBe(0);
    const dest = path.join(tmp, 'out');
    const report = await s.copyOut('out', dest, { maxBytes: 100_000 });
    expect(fs.readFileSync(path.join(dest, 'd', 'k.txt'), 'utf8')).toBe('keep\n');
    expect(fs.readFileSync(path.join(dest, 's.txt'), 'utf8')).toBe('small\n');
    expect(fs.existsSync(path.join(dest, 'link'))).toBe(false);
    expect(fs.existsSync(path.join(dest, 'pipe'))).toBe(false);
    expect(fs.existsSync(path.join(dest, 'big.bin'))).toBe(false);
    expect(report.files).toBe(2);
    expect(report.skipped.map((x) => x.path.replace(/^out\//, '')).sort()).toEqual(['big.bin', 'link', 'pipe']);
    expect(report.stopped).toBeUndefined();
    await expect(s.copyOut('missing', path.join(tmp, 'none'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('stops a copy-out at the entry bound without waiting for the rest', async () => {
    const s = main(a);
    expect((await s.exec('mkdir many && cd many && for i in $(seq 1 300); do echo $i > f$i; done')).exitCode).toBe(0);
    const t0 = Date.now();
    const report = await s.copyOut('many', path.join(tmp, 'many'), { maxEntries: 50 });
    expect(report.stopped).toMatch(/stopped after 50 entries/);
    expect(Date.now() - t0).toBeLessThan(20_000);
  });

  it('transfers a tree to another pod: files, folders and symlinks, less what is skipped, within the cap', async () => {
    const s = main(a);
    const plant =
      'mkdir -p repo/.git repo/src && echo code > repo/src/m.c && echo g > repo/.git/HEAD && ln -s src/m.c repo/l';
    expect((await s.exec(plant)).exitCode).toBe(0);
    await s.transfer('repo', main(b), { skip: ['.git'], to: '/workspace/copied' });
    const there = await main(b).exec('cat copied/src/m.c; readlink copied/l; ls -a copied');
    expect(there.stdout).toBe('code\nsrc/m.c\n.\n..\nl\nsrc\n');
    await expect(s.transfer('repo', main(b), { maxBytes: 2, to: '/workspace/capped' })).rejects.toThrow(
      /more than 2 bytes/,
    );
  });

  it('keeps a long exec alive with pings the API server answers', async () => {
    const nul = () => new Writable({ write: (_c, _e, done) => done() });
    const pod = main(a).id;
    const opened = await openExec(cluster, pod, ['sleep', '2'], { stdout: nul(), stderr: nul(), keepAliveMs: 300 });
    await opened.closed;
    expect(opened.status()?.status).toBe('Success');
    expect(opened.pongs()).toBeGreaterThanOrEqual(4);
  });
});
