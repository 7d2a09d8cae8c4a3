// The harness's side of grading isolation, against the real daemon: the read-only toolbox, the
// keep-alive as PID 1 that the agent cannot take over, the end in place and the restart that leave
// nothing of the agent running, the trusted shell, health and transfer.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docker } from '../../../../src/sandbox/docker/client.ts';
import { ensureImage } from '../../../../src/sandbox/docker/images.ts';
import { DockerProvider } from '../../../../src/sandbox/docker/sandbox.ts';
import { trustedArgv, untraceableArgv } from '../../../../src/sandbox/docker/toolbox.ts';
import type { Sandbox, SandboxSpec } from '../../../../src/sandbox/types.ts';
import { REPO } from '../../../support/cli.ts';
import { benchrigContainers, requireDocker, testRunId, testSpec } from '../../../support/docker.ts';

const ok = await requireDocker();
const runId = testRunId('toolbox');
const DEBIAN = 'benchrig/debian:1';

describe.skipIf(!ok)('the sandbox toolbox and grading restart', () => {
  const provider = new DockerProvider();
  const started: Sandbox[] = [];
  const start = async (session: string, image?: string, more: Partial<SandboxSpec> = {}) => {
    const sb = await provider.start(testSpec({ ...(image ? { image } : {}), ...more }), { runId, sessionId: session });
    started.push(sb);
    return sb;
  };
  /** Every process of the sandbox, as `pid ppid uid comm`, read by the toolbox's shell. */
  const processes = async (sb: Sandbox) =>
    (
      await sb.exec(
        'for d in /proc/[0-9]*; do p=${d#/proc/}; [ $p = $$ ] && continue; read -r s < $d/stat 2>/dev/null || continue; set -- ${s##*) }; [ $2 = $$ ] && continue; u=$(grep ^Uid: $d/status | cut -f2); c=${s#*(}; echo "$p $2 $u ${c%) *} $1"; done',
        { trusted: true, cwd: '/' },
      )
    ).stdout
      .trim()
      .split('\n'); // but the listing's own shell and the tools it starts
  const startedAt = async (sb: Sandbox) => (await docker().getContainer(sb.id).inspect()).State.StartedAt;

  beforeAll(async () => {
    // perl's syscall is the agent's ptrace here; the busybox image has no tracer.
    await ensureImage({ image: DEBIAN, build: join(REPO, 'sandboxes/debian'), trusted: true });
  }, 300_000);

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
    // The image is busybox without nohup: the loop detaches with setsid; it has run before the restart.
    await sb.exec(
      'echo work > /workspace/out.txt; setsid sh -c "while :; do echo tamper >> /workspace/log; sleep 0.05; done" >/dev/null 2>&1 & sleep 0.3',
    );
    await sb.restart();
    const before = (await sb.exec('wc -l < /workspace/log', { trusted: true })).stdout.trim();
    expect(Number(before)).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 300));
    const after = (await sb.exec('wc -l < /workspace/log', { trusted: true })).stdout.trim();
    expect(after).toBe(before); // nothing writes any more
    expect((await sb.exec('cat /workspace/out.txt', { trusted: true })).stdout).toBe('work\n');
    const ps = await sb.exec('ps -o args', { trusted: true });
    expect(ps.stdout).not.toContain('tamper');
    expect(ps.stdout).toContain('/.benchrig/init/busybox sh -c trap');
  });

  it('the keep-alive is PID 1: the agent, root, cannot trace it, write its memory, signal it or stop the container by killing every process', async () => {
    const sb = await start('pid1', DEBIAN);
    const trace = (pid: string) =>
      `perl -e 'print syscall(101, 16, 0 + $ARGV[0], 0, 0) == -1 ? "refused" : "attached", "\\n"' ${pid}`;
    const r = await sb.exec(
      `sleep 30 & ${trace('$!')}; ${trace('1')}; (exec 3<>/proc/1/mem) 2>/dev/null && echo opened || echo refused; kill -KILL 1; kill -TERM 1; kill -INT 1; kill -HUP 1; kill -9 -1`,
    );
    // Tracing is there for the agent's own processes; PID 1 runs from the toolbox's unreadable copy.
    expect(r.stdout).toBe('attached\nrefused\nrefused\n');
    expect(await sb.health()).toMatchObject({ daemon: true, state: 'running' });
    expect((await processes(sb)).filter((l) => l.startsWith('1 '))).toEqual([
      expect.stringMatching(/^1 0 0\s.*busybox S$/),
    ]);
  });

  it('PID 1 reaps an orphan handed to it and starts no process of its own, so the end before grading finds it alone', async () => {
    const sb = await start('reap');
    await sb.exec('(sleep 0.1 &); exit 0');
    await new Promise((ok) => setTimeout(ok, 600));
    expect(await processes(sb)).toEqual([expect.stringMatching(/^1 0 0\s.*busybox S$/)]);
  });

  it('endInPlace ends every process the agent left, of any uid, however it hid, in one exec: the container keeps running, with its files', async () => {
    const sb = await start('in-place', DEBIAN);
    const since = await startedAt(sb);
    await sb.exec('chmod 777 /workspace && echo work > /workspace/out.txt');
    await sb.exec(
      [
        'nohup sh -c "while :; do echo tamper >> /workspace/log; sleep 0.02; done" >/dev/null 2>&1 &',
        `setsid sh -c 'trap "" TERM INT HUP; while :; do sleep 0.05; done' >/dev/null 2>&1 &`,
        'sh -c "sleep 300" & kill -STOP $!',
        'for i in $(seq 80); do nohup sleep 300 >/dev/null 2>&1 & done',
        'sleep 0.5',
      ].join('\n'),
    );
    await sb.exec('nohup sh -c "while :; do echo other >> /workspace/log-1000; sleep 0.02; done" >/dev/null 2>&1 &', {
      user: '1000',
    });
    expect((await processes(sb)).length).toBeGreaterThan(50);
    await sb.endInPlace();
    // PID 1 alone: nothing of uid 1000, no zombie holding a pid.
    expect(await processes(sb)).toEqual([expect.stringMatching(/^1 0 0\s.*busybox S$/)]);
    const lines = async () =>
      (await sb.exec('cat /workspace/log /workspace/log-1000 | wc -l', { trusted: true })).stdout;
    const before = await lines();
    await new Promise((ok) => setTimeout(ok, 300));
    expect(await lines()).toBe(before); // nothing writes any more
    expect((await sb.exec('cat /workspace/out.txt', { trusted: true })).stdout).toBe('work\n');
    expect(await startedAt(sb)).toBe(since); // the same run of the container: not restarted
    // The pids the storm held are free again.
    expect((await sb.exec('for i in $(seq 60); do sleep 1 & done; wait; echo ok', { trusted: true })).stdout).toBe(
      'ok\n',
    );
  });

  it("endInPlace's killer runs untraceable: the agent, root, traces a trusted command but not one of the untraceable shell", async () => {
    const sb = await start('untraceable', DEBIAN);
    // Both as root, as the killer runs; the agent's tracer attaches to any process it may the moment it appears.
    const runs = [
      sb.exec(untraceableArgv('sleep 2'), { trusted: true, cwd: '/' }),
      sb.exec(trustedArgv('sleep 2.1'), { trusted: true, cwd: '/' }),
    ];
    await new Promise((ok) => setTimeout(ok, 500));
    const r = await sb.exec(
      // PTRACE_SEIZE (0x4206): attached without stopping it.
      String.raw`perl -e 'for my $d (glob "/proc/[0-9]*") { open my $f, "<", "$d/cmdline" or next; local $/; my $c = <$f>; $c =~ s/\0/ /g; next unless $c =~ /^sleep (2(?:\.1)?)\s*$/; my $p = 0 + (split "/", $d)[2]; my $r = syscall(101, 0x4206, $p, 0, 0); print "$1 ", ($r == -1 ? "refused" : "attached"), "\n" }' | sort`,
    );
    await Promise.all(runs);
    expect(r.stdout).toBe('2 refused\n2.1 attached\n');
  });

  it('with a capability the task added, endInPlace restarts the container whole (CAP_SYS_PTRACE lets the agent trace PID 1)', async () => {
    const sb = await start('in-place-cap', DEBIAN, { capAdd: ['SYS_PTRACE'] });
    const since = await startedAt(sb);
    const traced = await sb.exec(
      `perl -e 'print syscall(101, 0x4206, 1, 0, 0) == -1 ? "refused" : "attached", "\n"'; nohup sh -c "while :; do echo tamper >> /workspace/log; sleep 0.02; done" >/dev/null 2>&1 &`,
    );
    expect(traced.stdout).toBe('attached\n');
    await sb.endInPlace();
    expect(await startedAt(sb)).not.toBe(since);
    expect(await processes(sb)).toEqual([expect.stringMatching(/^1 0 0\s.*busybox S$/)]);
  });

  it('endInPlace leaves nothing of a fork storm that holds every pid it may (in place, or by a restart when its killer cannot start)', async () => {
    const sb = await start('in-place-storm');
    await sb.exec('nohup sh -c "while :; do sleep 300 & done" >/dev/null 2>&1 & sleep 1');
    await sb.endInPlace();
    expect(await processes(sb)).toEqual([expect.stringMatching(/^1 0 0\s.*busybox S$/)]);
  });

  it('endInPlace starts a container that is not running again, bare, as restart does', async () => {
    const sb = await start('in-place-stopped');
    await docker().getContainer(sb.id).kill();
    await docker().getContainer(sb.id).wait({ condition: 'not-running' });
    await sb.endInPlace();
    expect(await sb.health()).toMatchObject({ daemon: true, state: 'running' });
    expect((await sb.exec('echo up', { trusted: true })).stdout).toBe('up\n');
  });

  it('restart brings back a container that was stopped, and health tells stopped from gone', async () => {
    const sb = await start('stopped');
    await docker().getContainer(sb.id).kill();
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
