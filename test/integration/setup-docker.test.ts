// `npm run setup` (scripts/setup-docker.sh, docs/development.md) next to a daemon that already runs: it
// never starts a second dockerd, never when DOCKER_HOST is set (that address is only checked), and
// never truncates the daemon's log. Run in a private mount namespace with its own /var/log (the real
// daemon's log is not touched), with `dockerd` on PATH standing for the real one: it records that it
// was started and exits, so that nothing here can ever start a second daemon next to the shared one.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { REPO, tempDir } from '../support/cli.ts';

const EARLIER = 'earlier output of the running daemon\n';

interface SetupRun {
  code: number;
  stdout: string;
  stderr: string;
  /** Whether the script ran `dockerd`, and with what. */
  started: string | null;
  /** /var/log/benchrig-dockerd.log after the script, as it was written before it plus anything appended. */
  log: string;
}

/** scripts/setup-docker.sh with `env`, /var/log private to it and holding a daemon's log already. */
async function setup(env: Record<string, string>): Promise<SetupRun> {
  const dir = tempDir('benchrig-setup-');
  const bin = join(dir, 'bin');
  const marker = join(dir, 'dockerd-started');
  await execa('mkdir', ['-p', bin]);
  writeFileSync(join(bin, 'dockerd'), `#!/bin/sh\necho "dockerd $*" > ${marker}\nexit 1\n`);
  chmodSync(join(bin, 'dockerd'), 0o755);
  const inside = [
    'mount -t tmpfs tmpfs /var/log',
    `printf '%s' "$EARLIER" > /var/log/benchrig-dockerd.log`,
    'rc=0; bash scripts/setup-docker.sh || rc=$?',
    `cp /var/log/benchrig-dockerd.log ${join(dir, 'log-after')}`,
    'exit $rc',
  ].join('\n');
  const r = await execa('unshare', ['-m', '--propagation', 'private', 'bash', '-c', inside], {
    cwd: REPO,
    env: { PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, HOME: dir, EARLIER, ...env },
    extendEnv: false,
    reject: false,
    timeout: 120_000,
  });
  return {
    code: r.exitCode ?? -1,
    stdout: String(r.stdout),
    stderr: String(r.stderr),
    started: existsSync(marker) ? readFileSync(marker, 'utf8').trim() : null,
    log: readFileSync(join(dir, 'log-after'), 'utf8'),
  };
}

describe('scripts/setup-docker.sh next to a running daemon', () => {
  it('DOCKER_HOST naming the running daemon: ready, nothing started, its log kept', async () => {
    const r = await setup({ DOCKER_HOST: 'unix:///var/run/docker.sock' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/setup-docker: Docker \S+ is ready/);
    expect(r.started).toBeNull();
    expect(r.log).toBe(EARLIER);
  });

  it('DOCKER_HOST naming a dead address: exit 1 naming DOCKER_HOST, nothing started, the log kept', async () => {
    const probe = createServer();
    await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok));
    const port = (probe.address() as { port: number }).port;
    await new Promise((ok) => probe.close(ok));
    const t0 = Date.now();
    const r = await setup({ DOCKER_HOST: `tcp://127.0.0.1:${port}` });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`setup-docker: Docker at DOCKER_HOST=tcp://127.0.0.1:${port} does not answer`);
    expect(r.stderr).toMatch(/Nothing was started here/);
    expect(r.stderr).not.toMatch(/could not be started/);
    expect(r.started).toBeNull();
    expect(r.log).toBe(EARLIER);
    expect(Date.now() - t0).toBeLessThan(30_000); // said at once, not after waiting for a daemon
  });

  it('no DOCKER_HOST, the default daemon answers: ready, nothing started, its log kept', async () => {
    const r = await setup({});
    expect(r.code, r.stderr).toBe(0);
    expect(r.started).toBeNull();
    expect(r.log).toBe(EARLIER);
  });
});
