import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerProvider, type DockerSandbox } from '../../../../src/sandbox/docker/sandbox.ts';
import { benchrigContainers, requireDocker, testRunId, testSpec } from '../../../support/docker.ts';

const ok = await requireDocker();
const runId = testRunId('exec');

describe.skipIf(!ok)('DockerSandbox.exec', () => {
  const provider = new DockerProvider();
  let sb: DockerSandbox;

  beforeAll(async () => {
    sb = await provider.start(testSpec({ maxOutputBytes: 1000 }), { runId, sessionId: `${runId}-1` });
  });
  afterAll(async () => {
    if (sb) await provider.stop(sb, { interrupted: false });
    expect(await benchrigContainers(runId)).toEqual([]);
  });

  it('returns the exit code and keeps stdout and stderr apart', async () => {
    const res = await sb.exec('echo out; echo err >&2; exit 3');
    expect(res).toEqual({ exitCode: 3, stdout: 'out\n', stderr: 'err\n', timedOut: false, truncated: false });
  });

  it('runs an argv array without a shell', async () => {
    const res = await sb.exec(['echo', '$HOME', 'a b']);
    expect(res.stdout).toBe('$HOME a b\n');
  });

  it('runs in the workdir by default, and in cwd (relative to it) when given', async () => {
    expect((await sb.exec('pwd')).stdout).toBe('/workspace\n');
    await sb.exec('mkdir -p sub/dir');
    expect((await sb.exec('pwd', { cwd: 'sub/dir' })).stdout).toBe('/workspace/sub/dir\n');
    expect((await sb.exec('pwd', { cwd: '/tmp' })).stdout).toBe('/tmp\n');
  });

  it('passes env and stdin', async () => {
    const res = await sb.exec('echo "$GREETING"; cat', { env: { GREETING: 'hello there' }, stdin: 'from stdin\n' });
    expect(res.stdout).toBe('hello there\nfrom stdin\n');
    expect((await sb.exec(['wc', '-c'], { stdin: 'x'.repeat(200_000) })).stdout.trim()).toBe('200000');
  });

  it('gives a command without stdin an empty one rather than hanging', async () => {
    const res = await sb.exec('cat', { timeoutMs: 5000 });
    expect(res).toMatchObject({ exitCode: 0, timedOut: false, stdout: '' });
  });

  it('kills a timed-out command and its children inside the container, keeping partial output', async () => {
    const started = Date.now();
    // A background grandchild that double-forks away from the shell must die too.
    const res = await sb.exec('echo before; (sleep 301 &); sleep 302; echo after', { timeoutMs: 1000 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(res).toMatchObject({ exitCode: 124, timedOut: true, stdout: 'before\n' });
    const ps = await sb.exec('ps -o pid,args');
    expect(ps.stdout).not.toMatch(/sleep 30[12]/);
    expect(ps.stdout).toContain('ps -o pid,args'); // ps itself listed: the check really saw the process table
  });

  it('uses the spec exec timeout by default', async () => {
    const quick = await provider.start(testSpec({ execTimeoutMs: 500 }), { runId, sessionId: `${runId}-2` });
    try {
      expect(await quick.exec('sleep 20')).toMatchObject({ exitCode: 124, timedOut: true });
    } finally {
      await provider.stop(quick, { interrupted: false });
    }
  });

  it('truncates long output to head and tail with a marker', async () => {
    const res = await sb.exec('seq 1 100000; seq 1 3 >&2');
    expect(res.truncated).toBe(true);
    expect(res.exitCode).toBe(0);
    expect(res.stdout.length).toBeLessThan(1100);
    expect(res.stdout.startsWith('1\n2\n3\n')).toBe(true);
    expect(res.stdout.endsWith('99999\n100000\n')).toBe(true);
    expect(res.stdout).toMatch(/\n\[\.\.\. \d+ bytes truncated \.\.\.\]\n/);
    expect(res.stderr).toBe('1\n2\n3\n');
  });

  it('stays bounded on a flood of output', async () => {
    const res = await sb.exec('head -c 30000000 /dev/zero | tr "\\0" a');
    expect(res.stdout.length).toBeLessThan(1100);
    expect(res.stdout).toContain(`[... ${30_000_000 - 1000} bytes truncated ...]`);
  });
});
