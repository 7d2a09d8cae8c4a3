// Images from a registry (docs/sandboxes.md#images-from-registries), against a real one: Debian's
// docker-registry on 127.0.0.1, started here. The benchmark's own image, a row's and a compose
// service's are pushed there and removed from this machine; without --pull the run is refused before
// it starts, naming the image and the flag; with it they are pulled (progress on stderr) and the
// trials run in them. A registry behind basic auth takes the Docker config file's credentials (as
// `docker login` writes them, or from a credential helper) and they are never printed; a registry
// that does not answer is infrastructure (exit 3) and nothing is started.
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onlyRunDir, results, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';
import { freePort, pushAndRemove, removeImage, startRegistry, type TestRegistry } from '../support/registry.ts';

const hasDocker = await requireDocker();
const tag = `${process.pid}-${Date.now().toString(36)}`;

interface Bench {
  dir: string;
  name: string;
}

/** A benchmark in `image` (no build), rows in their own images, a service beside main. */
function benchmark(image: string, rows: { id: string; image?: string; marker: string }[], service?: string): Bench {
  const dir = tempDir('benchrig-regbench-');
  const name = `reg-${tag}-${rows.length}${service ? 's' : ''}`;
  const toml = [
    `name = "${name}"`,
    '[dataset]',
    'source = "tasks.jsonl"',
    '[sandbox]',
    `image = "${image}"`,
    'memory = "128m"',
    'pids = 64',
    ...(service ? ['[sandbox.services.side]', `image = "${service}"`, 'command = ["sh", "-c", "exec sleep 300"]'] : []),
    '[limits]',
    'trial_timeout_s = 60',
    '[[checks]]',
    'type = "sandbox_test"',
    'name = "marker"',
    'command = "sh .tests/test.sh"',
  ];
  writeFileSync(join(dir, 'benchmark.toml'), toml.join('\n') + '\n');
  const lines = rows.map((r) =>
    JSON.stringify({
      id: r.id,
      input: 'copy /pulled-marker to out.txt',
      ...(r.image ? { sandbox: { image: r.image } } : {}),
      solution: 'cat /pulled-marker > out.txt',
      tests: { 'test.sh': `grep -qx ${r.marker} out.txt\n` },
    }),
  );
  writeFileSync(join(dir, 'tasks.jsonl'), lines.join('\n') + '\n');
  return { dir, name };
}

const run = (b: Bench, out: string, args: string[], env: Record<string, string> = {}) =>
  runCli(['run', b.dir, '--agent', 'oracle', '--output', out, ...args], { env, timeoutMs: 180_000 });

const present = async (image: string) =>
  (await execa('docker', ['image', 'inspect', image], { reject: false })).exitCode === 0;

/** Every file under `dir`, read as text. */
function allText(dir: string): string {
  if (!existsSync(dir)) return '';
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
    .join('\n');
}

const noRunFolder = (out: string) => expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);

describe.skipIf(!hasDocker)('images from a registry', () => {
  let registry: TestRegistry;
  const images: string[] = [];
  beforeAll(async () => {
    registry = await startRegistry();
  }, 60_000);
  afterAll(async () => {
    for (const i of images) await removeImage(i);
    await registry.stop();
  });

  it("the benchmark's, a row's and a service's image: refused before the run without --pull, pulled with it", async () => {
    const own = await pushAndRemove(registry, `bench/own:${tag}`, `own-${tag}`);
    const row = await pushAndRemove(registry, `bench/row:${tag}`, `row-${tag}`);
    const svc = await pushAndRemove(registry, `bench/svc:${tag}`, `svc-${tag}`);
    images.push(own, row, svc);
    const b = benchmark(
      own,
      [
        { id: 'in-own', marker: `own-${tag}` },
        { id: 'in-row', image: row, marker: `row-${tag}` },
      ],
      svc,
    );
    const env = { DOCKER_CONFIG: registry.dockerConfig };

    const out = tempDir();
    const refused = await run(b, out, [], env);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr.trim()).toMatch(
      new RegExp(`^benchrig: image ${own} is not on this machine: run with --pull \\(or \\[run\\] pull = true\\)`),
    );
    noRunFolder(out);

    const pulled = await run(b, out, ['--pull'], env);
    expect(pulled.code, pulled.stderr).toBe(0);
    for (const image of [own, row, svc]) {
      expect(pulled.stderr).toContain(`pulling ${image} from ${registry.host}`);
      expect(pulled.stderr).toMatch(new RegExp(`pulled ${image.replace(/[.]/g, '\\.')} in \\d`));
      expect(await present(image)).toBe(true);
    }
    expect(pulled.stderr).toMatch(/: Pull complete/); // the image's own layer came from the registry
    const byId = new Map(results(onlyRunDir(out, 'oracle', b.name)).map((r) => [r.task_id, r]));
    expect(byId.get('in-own')?.status).toBe('PASSED'); // it read own's marker
    expect(byId.get('in-row')?.status).toBe('PASSED'); // and row's
    expect(byId.get('in-row')?.metadata.sandbox?.image).toBe(row);

    // The row's image alone gone: refused again, naming it and the row.
    await removeImage(row);
    const out2 = tempDir();
    const rowRefused = await run(b, out2, [], env);
    expect(rowRefused.code, rowRefused.stderr).toBe(2);
    expect(rowRefused.stderr).toContain(`image ${row} (sample "in-row") is not on this machine: run with --pull`);
    noRunFolder(out2);

    // [run] pull = true does what --pull does.
    const cfg = join(tempDir(), 'pull.toml');
    writeFileSync(cfg, '[run]\npull = true\n');
    const byConfig = await run(b, out2, ['--config', cfg], env);
    expect(byConfig.code, byConfig.stderr).toBe(0);
    expect(byConfig.stderr).toContain(`pulling ${row} from ${registry.host}`);
  }, 300_000);

  it("an image the registry does not have is the user's error (exit 2), before anything runs", async () => {
    const b = benchmark(`${registry.host}/bench/nothing:${tag}`, [{ id: 'a', marker: 'x' }]);
    const out = tempDir();
    const r = await run(b, out, ['--pull'], { DOCKER_CONFIG: registry.dockerConfig });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(`pulling ${registry.host}/bench/nothing:${tag}: registry ${registry.host} has no such image`),
    );
    noRunFolder(out);
  }, 120_000);
});

describe.skipIf(!hasDocker)('a registry that requires basic auth', () => {
  const user = 'benchrig-user';
  const password = `pw-${tag}-Zq9`;
  let registry: TestRegistry;
  let image = '';
  beforeAll(async () => {
    registry = await startRegistry({ user, password });
    image = await pushAndRemove(registry, `private/img:${tag}`, `private-${tag}`);
  }, 90_000);
  afterAll(async () => {
    await removeImage(image);
    await registry.stop();
  });

  /** A DOCKER_CONFIG folder holding `config`. */
  const configDir = (config: object) => {
    const dir = tempDir('benchrig-dockercfg-');
    writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
    return dir;
  };

  it('without credentials, or with wrong ones, the run is refused (exit 2) naming the registry and the file', async () => {
    const b = benchmark(image, [{ id: 'a', marker: `private-${tag}` }]);
    const out = tempDir();
    const none = configDir({});
    const r1 = await run(b, out, ['--pull'], { DOCKER_CONFIG: none });
    expect(r1.code, r1.stderr).toBe(2);
    expect(r1.stderr).toContain(
      `registry ${registry.host} asks for credentials and ${join(none, 'config.json')} has none for it; run docker login ${registry.host}`,
    );
    const wrong = configDir({ auths: { [registry.host]: { auth: Buffer.from(`${user}:not-it`).toString('base64') } } });
    const r2 = await run(b, out, ['--pull'], { DOCKER_CONFIG: wrong });
    expect(r2.code, r2.stderr).toBe(2);
    expect(r2.stderr).toContain(`registry ${registry.host} refused the credentials of ${join(wrong, 'config.json')}`);
    expect(r2.stderr).not.toContain('not-it');
    noRunFolder(out);
    expect(await execa('docker', ['image', 'inspect', image], { reject: false }).then((x) => x.exitCode)).not.toBe(0);
  }, 180_000);

  it('pulls with what docker login wrote, and never prints or saves the password', async () => {
    const b = benchmark(image, [{ id: 'a', marker: `private-${tag}` }]);
    const out = tempDir();
    const r = await run(b, out, ['--pull'], { DOCKER_CONFIG: registry.dockerConfig });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`pulling ${image} from ${registry.host} (with credentials from the Docker config file)`);
    expect(results(onlyRunDir(out, 'oracle', b.name))[0].status).toBe('PASSED');
    const b64 = Buffer.from(`${user}:${password}`).toString('base64');
    for (const text of [r.stdout, r.stderr, allText(out)]) {
      expect(text).not.toContain(password);
      expect(text).not.toContain(b64);
    }
  }, 180_000);

  it('asks a credential helper named by credsStore; a helper that is not installed is refused (exit 2)', async () => {
    await removeImage(image);
    const bin = tempDir('benchrig-helper-');
    const helper = join(bin, 'docker-credential-benchrigtest');
    // The helper protocol: `get` reads the registry on stdin and answers {Username, Secret}.
    writeFileSync(
      helper,
      `#!/bin/sh\nread server\n[ "$server" = "${registry.host}" ] || { echo "credentials not found in native keychain"; exit 1; }\n` +
        `printf '{"ServerURL":"%s","Username":"${user}","Secret":"${password}"}' "$server"\n`,
    );
    chmodSync(helper, 0o755);
    const cfg = configDir({ credsStore: 'benchrigtest' });
    const b = benchmark(image, [{ id: 'a', marker: `private-${tag}` }]);
    const out = tempDir();
    const r = await run(b, out, ['--pull'], { DOCKER_CONFIG: cfg, PATH: `${bin}:${process.env.PATH ?? ''}` });
    expect(r.code, r.stderr).toBe(0);
    expect(results(onlyRunDir(out, 'oracle', b.name))[0].status).toBe('PASSED');
    expect(r.stderr + r.stdout).not.toContain(password);

    await removeImage(image);
    const missing = configDir({ credsStore: 'not-installed-here' });
    const out2 = tempDir();
    const r2 = await run(b, out2, ['--pull'], { DOCKER_CONFIG: missing });
    expect(r2.code, r2.stderr).toBe(2);
    expect(r2.stderr).toContain(
      `${join(missing, 'config.json')} names the credential helper docker-credential-not-installed-here for ${registry.host}, and it is not installed`,
    );
    noRunFolder(out2);
  }, 180_000);
});

describe.skipIf(!hasDocker)('a registry that does not answer', () => {
  it('is infrastructure: exit 3, one clear line, no run folder (nothing started)', async () => {
    const host = `127.0.0.1:${await freePort()}`;
    const image = `${host}/gone/img:${tag}`;
    const b = benchmark(image, [{ id: 'a', marker: 'x' }]);
    const out = tempDir();
    const r = await run(b, out, ['--pull'], { DOCKER_CONFIG: tempDir() });
    expect(r.code, r.stderr).toBe(3);
    const lines = r.stderr.trim().split('\n');
    expect(lines[lines.length - 1]).toMatch(
      new RegExp(
        `^benchrig: could not pull ${image.replace(/[.]/g, '\\.')}: registry ${host.replace(/[.]/g, '\\.')} did not answer \\(.*connection refused.*\\)`,
      ),
    );
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    noRunFolder(out); // trials start only once the run folder is there
  }, 120_000);
});
