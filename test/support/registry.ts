// A real registry for tests: Debian's `docker-registry` (the distribution registry) on 127.0.0.1, its
// storage in a temp folder, optionally behind htpasswd basic auth; images pushed into it with the
// docker CLI under a config folder of the test's own (DOCKER_CONFIG), as `docker login` writes it.
// 127.0.0.0/8 is an insecure registry for the daemon by default: no TLS needed. Missing binaries fail
// the test (scripts/setup-docker.sh installs them).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa } from 'execa';

export interface TestRegistry {
  /** 127.0.0.1:PORT */
  host: string;
  /** A Docker config folder logged in to it (auth) or empty (none): for DOCKER_CONFIG. */
  dockerConfig: string;
  stop(): Promise<void>;
}

async function need(program: string, pkg: string): Promise<void> {
  const r = await execa('sh', ['-c', `command -v ${program}`], { reject: false });
  if (r.exitCode !== 0)
    throw new Error(`${program} is not installed: apt-get install -y ${pkg} (scripts/setup-docker.sh installs it)`);
}

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  await new Promise((ok) => server.close(ok));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The registry started and answering `/v2/`; with `auth`, only that user gets in. */
export async function startRegistry(auth?: { user: string; password: string }): Promise<TestRegistry> {
  await need('docker-registry', 'docker-registry');
  const dir = mkdtempSync(join(tmpdir(), 'benchrig-registry-'));
  const dockerConfig = join(dir, 'docker-config');
  await execa('mkdir', ['-p', dockerConfig]);
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const config = [
    'version: 0.1',
    'log:',
    '  level: warn',
    'storage:',
    '  filesystem:',
    `    rootdirectory: ${join(dir, 'data')}`,
    'http:',
    `  addr: ${host}`,
  ];
  if (auth) {
    await need('htpasswd', 'apache2-utils');
    const line = await execa('htpasswd', ['-Bbn', auth.user, auth.password]);
    writeFileSync(join(dir, 'htpasswd'), line.stdout.trim() + '\n');
    config.push('auth:', '  htpasswd:', '    realm: benchrig-test', `    path: ${join(dir, 'htpasswd')}`);
  }
  writeFileSync(join(dir, 'config.yml'), config.join('\n') + '\n');
  const child = spawn('docker-registry', ['serve', join(dir, 'config.yml')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (c: Buffer) => (log = (log + c.toString()).slice(-4000)));
  const registry = { host, dockerConfig, stop: () => stopRegistry(child, dir) };
  try {
    await waitAnswering(host, child, () => log);
    if (auth)
      await execa('docker', ['--config', dockerConfig, 'login', '-u', auth.user, '--password-stdin', host], {
        input: auth.password,
      });
    return registry;
  } catch (err) {
    await registry.stop();
    throw err;
  }
}

async function waitAnswering(host: string, child: ChildProcess, log: () => string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`docker-registry exited ${child.exitCode}: ${log()}`);
    const status = await fetch(`http://${host}/v2/`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200 || status === 401) return;
    await sleep(100);
  }
  throw new Error(`docker-registry did not answer on ${host}: ${log()}`);
}

async function stopRegistry(child: ChildProcess, dir: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((ok) => child.once('exit', ok));
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(5000)]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  rmSync(dir, { recursive: true, force: true });
}

/**
 * `name` built FROM benchrig/busybox:1 with /pulled-marker holding `marker` (a layer of its own, so a
 * pull downloads it), pushed to the registry, then removed from this machine.
 */
export async function pushAndRemove(registry: TestRegistry, name: string, marker: string): Promise<string> {
  const image = `${registry.host}/${name}`;
  const dockerfile = `FROM benchrig/busybox:1\nRUN echo ${marker} > /pulled-marker\n`;
  await execa('docker', ['build', '-q', '-t', image, '-'], { input: dockerfile });
  try {
    await execa('docker', ['--config', registry.dockerConfig, 'push', image]);
  } finally {
    await removeImage(image);
  }
  return image;
}

/** The image gone from this machine (its layers too, but the base's). */
export async function removeImage(image: string): Promise<void> {
  await execa('docker', ['rmi', '-f', image], { reject: false });
}
