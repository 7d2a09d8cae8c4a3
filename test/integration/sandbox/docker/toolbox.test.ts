// The harness's side of grading isolation, against the real daemon: the read-only toolbox, the
// restart that leaves nothing of the agent running, the trusted shell, health and transfer.
import { afterAll, describe, expect, it } from 'vitest';
import { docker } from '../../../../src/sandbox/docker/client.ts';
import { DockerProvider } from '../../../../src/sandbox/docker/sandbox.ts';
import type { Sandbox } from '../../../../src/sandbox/types.ts';
import { benchrigContainers, requireDocker, testRunId, testSpec } from '../../../support/docker.ts';

const ok = await requireDocker();
const runId = testRunId('toolbox');

describe.skipIf(!ok)('the sandbox toolbox and grading restart', () => {
  const provider = new DockerProvider();
  const started: Sandbox[] = [];
  const start = async (session: string) => {
    const sb = await provider.start(testSpec(), { runId, sessionId: session });
    started.push(sb);
    return sb;
  };

  afterAll(async () => {
    for (const sb of started) await provider.stop(sb, { interrupted: false });
    expect(await benchrigContainers(runId)).toEqual([]);
  });

  it('root in the sandbox cannot change the toolbox: it is a read-only mount it cannot remove or cover', async () => {
    const sb = await start('ro');
    const r = await sb.exec(
      'echo x > /.benchrig/busybox; echo $?; rm -rf /.benchrig; echo $?; mv /.benchrig /x; echo $?; mount -t tmpfs none /.benchrig; echo $?; ls /.benchrig/busybox',
    );
    const codes = r.stdout.trim().split('\n');
    expect(codes.slice(0, 4).every((c) => c !== '0')).toBe(true);
    expect(codes[4]).toBe('/.benchrig/busybox');
  });

  it('trusted commands run the toolbox shell and tools even with /bin/sh, cat and the whole busybox of the image gone', async () => {
    const sb = await start('trusted');
    await sb.exec('echo real > /workspace/f');
    await sb.exec(['/bin/busybox', 'rm', '-f', '/bin/sh', '/bin/cat', '/bin/grep']);
    await sb.exec(['/bin/busybox', 'rm', '-f', '/bin/busybox']);
    expect((await sb.exec('cat f')).exitCode).not.toBe(0); // the image has no shell left
    const r = await sb.exec('cat f | grep -c real; [ -f f ] && echo yes', { trusted: true });
    expect(r).toMatchObject({ exitCode: 0, stdout: '1\nyes\n' });
  });

  it('a timed-out command is killed even when the image has no kill, grep or sh', async () => {
    const sb = await start('killer');
    await sb.exec('rm -f /bin/kill /bin/grep /bin/sh');
    const t0 = Date.now();
    const r = await sb.exec(['/bin/busybox', 'sleep', '30'], { timeoutMs: 500 });
    expect(r).toMatchObject({ exitCode: 124, timedOut: true });
    expect(Date.now() - t0).toBeLessThan(10_000);
    const ps = await sb.exec('ps -o args', { trusted: true });
    expect(ps.stdout.split('\n').filter((l) => l.startsWith('/bin/busybox sleep 30'))).toEqual([]);
  });

  it('restart ends every process the agent left and keeps its files; the keep-alive comes back from the toolbox', async () => {
    const sb = await start('restart');
    await sb.exec(
      'echo work > /workspace/out.txt; nohup sh -c "while :; do echo tamper >> /workspace/log; sleep 0.05; done" >/dev/null 2>&1 &',
    );
    await sb.restart();
    const before = (await sb.exec('wc -l < /workspace/log', { trusted: true })).stdout.trim();
    await new Promise((r) => setTimeout(r, 300));
    const after = (await sb.exec('wc -l < /workspace/log', { trusted: true })).stdout.trim();
    expect(after).toBe(before); // nothing writes any more
    expect((await sb.exec('cat /workspace/out.txt', { trusted: true })).stdout).toBe('work\n');
    const ps = await sb.exec('ps -o args', { trusted: true });
    expect(ps.stdout).not.toContain('tamper');
    expect(ps.stdout).toContain('/.benchrig/busybox sh -c while');
  });

  it('restart brings back a container the agent stopped (kill -9 -1), and health tells stopped from gone', async () => {
    const sb = await start('stopped');
    await sb.exec('kill -9 -1').catch(() => undefined);
    await docker().getContainer(sb.id).wait({ condition: 'not-running' });
    expect(await sb.health()).toMatchObject({ daemon: true, state: 'stopped' });
    await sb.restart();
    expect(await sb.health()).toMatchObject({ daemon: true, state: 'running' });
    expect((await sb.exec('echo up', { trusted: true })).stdout).toBe('up\n');
    await docker().getContainer(sb.id).remove({ force: true });
    expect(await sb.health()).toMatchObject({ daemon: true, state: 'gone' });
  });

  it('transfer copies a folder to another sandbox, symlinks kept as links, fifos dropped', async () => {
    const from = await start('from');
    const to = await start('to');
    await from.exec(
      'mkdir -p /workspace/d && echo a > /workspace/d/a.txt && ln -s /etc/passwd /workspace/link && mkfifo /workspace/pipe',
    );
    await from.restart();
    await to.exec('rm -rf /workspace', { trusted: true });
    await from.transfer('/workspace', to);
    const r = await to.exec('cat d/a.txt; readlink link; [ -e pipe ] && echo pipe || echo no-pipe', { trusted: true });
    expect(r.stdout).toBe('a\n/etc/passwd\nno-pipe\n');
  });
});
