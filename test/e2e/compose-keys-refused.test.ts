// Each compose key benchrig refuses (docs/benchmarks.md#compose-tasks), through the CLI: exit 2, one
// line naming the task, its compose file, the service and the key, no stack trace. The compose files
// are test/fixtures/harbor-compose-refused/compose/*.yaml (privileged: compose-load.test.ts); the
// task folder is copied so that `..` and the Docker socket resolve as they would for a user's task.
import { execFileSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempDir } from '../support/cli.ts';

const REFUSED = join(FIXTURES, 'harbor-compose-refused');

/** compose file, the key named, what the line says of it. */
const CASES: Array<[string, string, RegExp]> = [
  ['cap_add', 'services.side.cap_add', /capabilities NET_ADMIN are not allowed/],
  ['devices', 'services.side.devices', /host devices are not allowed/],
  ['pid-host', 'services.side.pid', /pid: "host" shares a namespace outside the environment; not allowed/],
  ['ipc-host', 'services.side.ipc', /ipc: "host" shares a namespace outside the environment; not allowed/],
  ['network_mode-host', 'services.side.network_mode', /network_mode: host is not allowed/],
  ['docker-socket', 'services.side.volumes[0]', /bind mount "\/var\/run\/docker.sock" is the Docker socket/],
  ['bind-outside', 'services.side.volumes[0]', /bind mount "\.\.\/\.\.\/\.\.\/" is outside the task folder/],
  ['external-volume', 'volumes.data.external', /not allowed: .* \(used by services\.side\.volumes\)/],
  ['external-network', 'networks.outside.external', /not allowed: .* \(used by services\.side\.networks\)/],
  ['security_opt', 'services.side.security_opt', /"seccomp:unconfined" loosens the sandbox/],
  // A label under benchrig's prefix would be taken for benchrig's own: benchrig.keep hides the
  // sidecar (and the volume it holds) from every sweep of a killed harness but --kept/--all.
  ['labels-benchrig', 'services.side.labels', /"benchrig\.keep" is benchrig's own label/],
];

function taskWith(compose: string): string {
  const dir = join(tempDir(), 'task');
  cpSync(REFUSED, dir, { recursive: true, verbatimSymlinks: true });
  cpSync(join(dir, 'compose', `${compose}.yaml`), join(dir, 'environment', 'docker-compose.yaml'));
  return dir;
}

describe('refused compose keys', () => {
  it.each(CASES)(
    '%s: validate is exit 2 naming the task, file and key',
    async (compose, key, what) => {
      const dir = taskWith(compose);
      const v = await runCli(['validate', dir]);
      expect(v.code).toBe(2);
      const lines = v.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`task "task" (${dir}/environment/docker-compose.yaml): key ${key}: `);
      expect(lines[0]).toMatch(what);
      expect(v.stdout).toBe('');
    },
    60_000,
  );

  it.each([
    ['FIFO', 'a FIFO (named pipe)'],
    ['socket', 'a socket'],
  ])(
    'a bind whose source is a %s: validate is exit 2 naming the file, at once',
    async (kind, what) => {
      const dir = taskWith('bind-fifo');
      const pipe = join(dir, 'environment', 'data', 'pipe');
      const server = kind === 'socket' ? createServer() : null;
      if (server) await new Promise<void>((ok) => server.listen(pipe, ok));
      else execFileSync('mkfifo', [pipe]);
      try {
        const v = await runCli(['validate', dir], { timeoutMs: 30_000 });
        expect(v.code, v.stderr).toBe(2);
        expect(v.stderr.trim().split('\n')).toEqual([
          expect.stringContaining(
            `task "task" (${dir}/environment/docker-compose.yaml): key services.side.volumes[0]: bind mount "./data/pipe" is ${what} (${pipe}), not a file or a folder`,
          ),
        ]);
      } finally {
        server?.close();
      }
    },
    60_000,
  );

  it('run refuses the same way, before anything starts', async () => {
    const dir = taskWith('docker-socket');
    const out = tempDir();
    const r = await runCli(['run', dir, '--agent', 'oracle', '--output', out]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringContaining(
        `task "task" (${dir}/environment/docker-compose.yaml): key services.side.volumes[0]: bind mount "/var/run/docker.sock" is the Docker socket`,
      ),
    ]);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
