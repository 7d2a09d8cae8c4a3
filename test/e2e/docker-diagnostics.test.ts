// What a user sees when Docker does not answer `benchrig run` (docs/sandboxes.md#when-docker-does-not-answer):
// the cause (permission, not running, wrong address) and where the address came from, each met for
// real — a socket this user may not open (the CLI run as `nobody`), a missing socket, a closed port,
// a host name that does not exist.
import { chmodSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, FIXTURES, runCli, tempDir } from '../support/cli.ts';

const mini = join(FIXTURES, 'benchmarks/mini-shell');
const NOBODY = 65534;

/** `benchrig run mini-shell` as `nobody` (no supplementary groups: not in the docker group), with only `env`. */
async function runAsNobody(env: Record<string, string>) {
  const home = tempDir('benchrig-nobody-');
  chmodSync(home, 0o777);
  const r = await execa(
    'setpriv',
    [
      `--reuid=${NOBODY}`,
      `--regid=${NOBODY}`,
      '--clear-groups',
      'node',
      BIN,
      'run',
      mini,
      '--agent',
      'oracle',
      '--output',
      join(home, 'out'),
    ],
    {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, NO_COLOR: '1', ...env },
      extendEnv: false,
      reject: false,
      cwd: home,
    },
  );
  return { code: r.exitCode, stderr: String(r.stderr) };
}

/** `benchrig run mini-shell` with DOCKER_HOST (or other flags): exit code and the one line printed. */
async function runWith(env: Record<string, string>, extra: string[] = []) {
  const r = await runCli(['run', mini, '--agent', 'oracle', '--output', tempDir(), ...extra], { env });
  return { code: r.code, stderr: r.stderr.trim() };
}

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

// `nobody` must reach the CLI: a clone made in `mktemp -d` (mode 700, as CI makes it) is closed to
// others. Every folder above bin/ gets read and search permission for the test (esbuild's resolver
// lists folders to find node_modules), and its mode back after.
const opened: Array<[string, number]> = [];
beforeAll(() => {
  for (let d = dirname(BIN); d !== dirname(d); d = dirname(d)) {
    const mode = statSync(d).mode & 0o7777;
    if ((mode & 0o005) !== 0o005) {
      opened.push([d, mode]);
      chmodSync(d, mode | 0o005);
    }
  }
});
afterAll(() => {
  for (const [d, mode] of opened) chmodSync(d, mode);
});

describe('Docker diagnostics name the cause and the source of the address', () => {
  it('permission: the default socket this user may not open says so, not "start it"', async () => {
    // The real daemon's socket: root:docker, no access for others (what a user outside the docker group meets).
    expect(statSync('/var/run/docker.sock').mode & 0o006).toBe(0);
    const r = await runAsNobody({});
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr.split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(
      'Docker is not reachable at unix:///var/run/docker.sock (the default socket; DOCKER_HOST is not set)',
    );
    expect(r.stderr).toMatch(/permission denied on \/var\/run\/docker\.sock \(EACCES\)/);
    expect(r.stderr).toMatch(/docker group/);
    expect(r.stderr).toMatch(/sudo/);
    expect(r.stderr).toMatch(/rootless/);
    expect(r.stderr).not.toMatch(/Start it|install it/);
  });

  it('permission on a socket named by DOCKER_HOST names DOCKER_HOST', async () => {
    const dir = tempDir('benchrig-sock-');
    chmodSync(dir, 0o755);
    const path = join(dir, 'docker.sock');
    const server = createServer((s) => s.destroy());
    servers.push(server);
    await new Promise<void>((r) => server.listen(path, r));
    chmodSync(path, 0o600); // a root-owned socket: listening, but not for this user
    const r = await runAsNobody({ DOCKER_HOST: `unix://${path}` });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`(from the environment variable DOCKER_HOST=unix://${path})`);
    expect(r.stderr).toMatch(/permission denied .*\(EACCES\).*docker group/);
  });

  it('not running: a missing socket says Docker is not running there and how to start it', async () => {
    const path = join(tempDir(), 'docker.sock');
    const r = await runWith({ DOCKER_HOST: `unix://${path}` });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr.split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`(from the environment variable DOCKER_HOST=unix://${path})`);
    expect(r.stderr).toMatch(/no socket at .*\(ENOENT\): Docker is not running there\. Start it/);
    expect(r.stderr).toMatch(/Correct DOCKER_HOST/);
  });

  it('not running: a closed TCP port says nothing listens there', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise((r) => probe.close(r));
    const r = await runWith({ DOCKER_HOST: `tcp://127.0.0.1:${port}` });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`(from the environment variable DOCKER_HOST=tcp://127.0.0.1:${port})`);
    expect(r.stderr).toMatch(
      new RegExp(`nothing listens at 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\): the daemon there is not running`),
    );
  });

  it('wrong address: a host name that does not exist (named by --docker-host) says so', async () => {
    const r = await runWith({}, ['--docker-host', 'tcp://no-such-docker-host.invalid:2375']);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain('(from --docker-host)');
    expect(r.stderr).toMatch(
      /(no host is named no-such-docker-host\.invalid \(ENOTFOUND\)|cannot be reached \(EAI_AGAIN\)): a wrong address/,
    );
    expect(r.stderr).toMatch(/Correct --docker-host/);
  });
});
