// `benchrig sandbox prune` removes only the tags benchrig gave the images it built for samples: a
// user's image built FROM one of them inherits its labels but must stay, and so must a tag the user
// put on benchrig's image.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import * as tar from 'tar-stream';
import { afterAll, describe, expect, it } from 'vitest';
import { docker } from '../../src/sandbox/docker/client.ts';
import { pruneEnvImages } from '../../src/sandbox/docker/prune.ts';
import { FIXTURES, REPO, onlyRunDir, results, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';
import { defined } from '../support/defined.ts';

const hasDocker = await requireDocker();

/** `docker build -t tag` of a one-line Dockerfile. */
async function buildFrom(base: string, tag: string): Promise<void> {
  const pack = tar.pack();
  pack.entry({ name: 'Dockerfile' }, `FROM ${base}\nRUN echo mine > /opt/mine\n`);
  pack.finalize();
  const stream = (await docker().buildImage(pack as unknown as NodeJS.ReadableStream, { t: tag })) as Readable;
  const output = await new Promise<{ error?: string }[]>((resolve, reject) =>
    docker().modem.followProgress(stream, (err, res) => (err ? reject(err) : resolve(res))),
  );
  expect(output.filter((line) => line.error)).toEqual([]);
}

const imageId = (name: string) =>
  docker()
    .getImage(name)
    .inspect()
    .then(
      (i) => i.Id,
      (err: Error & { statusCode?: number }) => (err.statusCode === 404 ? null : Promise.reject(err)),
    );

describe.skipIf(!hasDocker)('benchrig sandbox prune', () => {
  const name = `prune-e2e-${process.pid}`;
  const child = `benchrig-test-user/child-${process.pid}:1`;
  const extra = `benchrig-test-user/extra-${process.pid}:keep`;
  const bench = join(tempDir(), name);
  cpSync(join(FIXTURES, 'benchmarks/env-per-sample'), bench, { recursive: true });
  writeFileSync(
    join(bench, 'benchmark.toml'),
    readFileSync(join(bench, 'benchmark.toml'), 'utf8')
      .replace('name = "env-per-sample"', `name = "${name}"`)
      .replace('../../../../sandboxes/busybox', join(REPO, 'sandboxes/busybox')),
  );
  afterAll(async () => {
    for (const image of [child, extra])
      await docker()
        .getImage(image)
        .remove()
        .catch(() => {});
    await pruneEnvImages({ benchmark: name });
  });

  it("untags what benchrig built; a user's image FROM it and the user's extra tag on it stay", async () => {
    const out = tempDir();
    await runCli(['run', bench, '--agent', 'oracle', '--sample', 'baked-1', '--mode', 'single', '--output', out]);
    const [res] = results(onlyRunDir(out, 'oracle', name));
    expect(res.status, JSON.stringify(res.error)).toBe('PASSED');
    const built: string = defined(res.metadata.sandbox).image;
    expect(built).toMatch(new RegExp(`^benchrig-env/${name}:[0-9a-f]{16}$`));
    const builtId = await imageId(built);

    await docker()
      .getImage(built)
      .tag({ repo: extra.split(':')[0], tag: 'keep' });
    await buildFrom(built, child); // inherits benchrig's labels
    const childId = await imageId(child);
    expect((await docker().getImage(child).inspect()).Config.Labels).toMatchObject({ 'benchrig.env': name });

    const r = await runCli(['sandbox', 'prune', '--benchmark', name]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`removed ${built}\n`);
    expect(r.stdout).toContain('removed 1 image(s)');
    expect(r.stderr).toBe('');
    expect(await imageId(built)).toBeNull(); // benchrig's tag is gone
    expect(await imageId(extra)).toBe(builtId); // the same image, still there under the user's tag
    expect(await imageId(child)).toBe(childId); // the user's own image, untouched
  }, 180_000);
});
