import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { BenchrigError } from '../../../../src/errors.ts';
import { docker } from '../../../../src/sandbox/docker/client.ts';
import { ensureImage, imageExists } from '../../../../src/sandbox/docker/images.ts';
import { requireDocker, TEST_IMAGE } from '../../../support/docker.ts';

const ok = await requireDocker();
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const tag = (name: string) => `benchrig-test/${name}:${randomBytes(4).toString('hex')}`;

describe.skipIf(!ok)('ensureImage', () => {
  const made: string[] = [];
  const dirs: string[] = [];
  const tempDir = (files: Record<string, string>) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-image-'));
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text, { mode: 0o755 });
    dirs.push(dir);
    return dir;
  };

  afterAll(async () => {
    for (const image of made)
      await docker()
        .getImage(image)
        .remove({ force: true })
        .catch(() => undefined);
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('builds sandboxes/busybox offline into a working, labelled image, and then keeps it', async () => {
    const image = tag('busybox');
    made.push(image);
    const lines: string[] = [];
    const built = await ensureImage(
      { image, build: path.join(repo, 'sandboxes/busybox'), trusted: true },
      { onProgress: (l) => lines.push(l) },
    );
    expect(built).toBe(true);
    expect(lines.join('\n')).toMatch(/Successfully (built|tagged)/);
    const info = await docker().getImage(image).inspect();
    expect(info.Config.Labels).toMatchObject({ benchrig: '1' });

    const c = await docker().createContainer({
      Image: image,
      Cmd: ['sh', '-c', "stat -c '%a' /tmp; ls -d /workspace; grep -c '' /etc/passwd; ls -l /bin/ls"],
    });
    try {
      await c.start();
      await c.wait();
      const logs = (await c.logs({ stdout: true, stderr: true })).toString('latin1');
      expect(logs).toContain('1777');
      expect(logs).toContain('/workspace');
      expect(logs).toMatch(/\/bin\/ls -> \/bin\/busybox/);
    } finally {
      await c.remove({ force: true });
    }
    expect(await ensureImage({ image, build: path.join(repo, 'sandboxes/busybox'), trusted: true })).toBe(false);
  });

  it('surfaces an error from inside the build stream as a benchmark error naming image and folder', async () => {
    const image = tag('broken');
    const dir = tempDir({ Dockerfile: `FROM ${TEST_IMAGE}\nRUN false\n` });
    const err = await ensureImage({ image, build: dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BenchrigError);
    expect(err).toMatchObject({ kind: 'benchmark' });
    expect((err as Error).message).toContain(`building image ${image} from ${dir} failed:`);
    expect((err as Error).message).toMatch(/returned a non-zero code: 1/);
    expect(await imageExists(image)).toBe(false);
  });

  it('reports a failing prepare.sh with its output', async () => {
    const image = tag('prep');
    const dir = tempDir({
      Dockerfile: 'FROM scratch\n',
      'prepare.sh': '#!/bin/sh\necho "need busybox-static" >&2\nexit 3\n',
    });
    await expect(ensureImage({ image, build: dir, trusted: true })).rejects.toThrow(
      /prepare\.sh exited 3: need busybox-static/,
    );
  });

  it('pulls only when asked: a missing image without a build folder is refused, naming it and --pull', async () => {
    const image = tag('absent');
    const err = await ensureImage({ image }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BenchrigError);
    expect((err as Error).message).toMatch(new RegExp(`^image ${image} is not on this machine: run with --pull`));
  });
});

describe.skipIf(!ok)('third-party build folders and image names (issue #21)', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });
  const folder = (files: Record<string, string>) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchrig-image-'));
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text, { mode: 0o755 });
    dirs.push(dir);
    return dir;
  };

  it("an untrusted folder's prepare.sh is refused at build, naming it, and never runs", async () => {
    const marker = path.join(folder({}), 'ran-on-host');
    const dir = folder({
      Dockerfile: `FROM ${TEST_IMAGE}\n`,
      'prepare.sh': `#!/bin/sh\ntouch ${marker}\ncp Dockerfile "$1/"\n`,
    });
    const err = await ensureImage({ image: tag('untrusted'), build: dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BenchrigError);
    expect((err as Error).message).toContain(`${path.join(dir, 'prepare.sh')} would run on the host`);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('a build context over the bound (here filled by a trusted prepare.sh) is refused naming its largest file', async () => {
    // 2.1 GiB, sparse: no disk spent, and nothing sent to Docker.
    const dir = folder({
      Dockerfile: 'FROM scratch\n',
      'prepare.sh': '#!/bin/sh\ncp Dockerfile "$1/" && truncate -s 2200M "$1/model.bin"\n',
    });
    const err = await ensureImage({ image: tag('huge'), build: dir, trusted: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BenchrigError);
    expect((err as Error).message).toMatch(
      /holds 2\.1 GiB, over the 1\.0 GiB .*largest file: .*\/model\.bin, 2\.1 GiB/,
    );
  });

  it('an image name that leads out of the API path sends nothing elsewhere and never crashes the process', async () => {
    const heard: string[] = [];
    const server = http.createServer((req, res) => (heard.push(`${req.method} ${req.url}`), res.end('{}')));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      // benchrig's own calls refuse the name before asking Docker
      await expect(imageExists(`../../127.0.0.1:${port}/x`)).rejects.toThrow(/is not a valid image reference/);
      // and the client under them never follows the daemon's redirect, to a host there or to none
      await expect(docker().getImage(`../../127.0.0.1:${port}/x`).inspect()).rejects.toThrow();
      await expect(docker().getImage('../../nonexistent-host').inspect()).rejects.toThrow();
      await new Promise((r) => setTimeout(r, 500)); // a followed redirect would arrive by now
      expect(heard).toEqual([]);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
