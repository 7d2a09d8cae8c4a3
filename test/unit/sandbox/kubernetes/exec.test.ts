import { describe, expect, it } from 'vitest';
import { exitCodeOf, podArgv, TRUSTED_PATH } from '../../../../src/sandbox/kubernetes/exec.ts';

const target = { workdir: '/workspace', execTimeoutMs: 20_000, maxOutputBytes: 1024 };

describe('podArgv', () => {
  it('runs every command under timeout -k, in the working directory, with its env', () => {
    expect(podArgv(['ls', '-l'], { cwd: 'sub', env: { A: 'b c' }, timeoutMs: 1_500 }, target)).toEqual([
      'timeout',
      '-k',
      '2',
      '2',
      'env',
      'A=b c',
      'sh',
      '-c',
      'cd "$1" && shift && exec "$@"',
      'sh',
      '/workspace/sub',
      'ls',
      '-l',
    ]);
  });

  it("a string goes to sh -c; the default timeout is the spec's", () => {
    const argv = podArgv('echo $HOME', {}, target);
    expect(argv.slice(0, 4)).toEqual(['timeout', '-k', '2', '20']);
    expect(argv.slice(-3)).toEqual(['sh', '-c', 'echo $HOME']);
  });

  it("with the toolbox, the wrapper and trusted commands run from /.benchrig's untraceable copy, its applets first on PATH", () => {
    const tb = { ...target, toolbox: true };
    const argv = podArgv('test -f x && cat x', { trusted: true }, tb);
    expect(argv.slice(0, 2)).toEqual(['/.benchrig/init/busybox', 'timeout']);
    expect(argv).toContain(`PATH=${TRUSTED_PATH}`);
    expect(argv.slice(-4)).toEqual(['/.benchrig/init/busybox', 'sh', '-c', 'test -f x && cat x']);
    expect(podArgv(['sh', '-c', 'tar -x'], { trusted: true }, tb).slice(-4)).toEqual([
      '/.benchrig/init/busybox',
      'sh',
      '-c',
      'tar -x',
    ]);
    // The agent's own commands keep the image's PATH, and a wrapper the agent may trace.
    const own = podArgv('ls', {}, tb);
    expect(own[0]).toBe('/.benchrig/busybox');
    expect(own.slice(-3)).toEqual(['sh', '-c', 'ls']);
    expect(own.some((a) => a.startsWith('PATH='))).toBe(false);
  });

  it('with a user, checks inside that the pod runs as it before running the command (exec cannot switch)', () => {
    const argv = podArgv(['ls'], { user: 'root:root' }, target);
    expect(argv.slice(5, 7)).toEqual(['sh', '-c']);
    expect(argv[7]).toMatch(/^want=\$1; have=\$\(id -u\):\$\(id -g\)/);
    expect(argv.slice(8)).toEqual(['sh', '0:0', '/workspace', 'ls']);
    expect(podArgv(['ls'], { user: '1000' }, target).slice(8)).toEqual(['sh', '1000', '/workspace', 'ls']);
  });

  it('refuses an empty argv', () => {
    expect(() => podArgv([], {}, target)).toThrow(/empty command/);
  });
});

describe('exitCodeOf', () => {
  it('reads the status channel: Success is 0, NonZeroExitCode carries the code, else unknown', () => {
    expect(exitCodeOf({ status: 'Success' })).toBe(0);
    expect(
      exitCodeOf({
        status: 'Failure',
        reason: 'NonZeroExitCode',
        details: { causes: [{ reason: 'ExitCode', message: '3' }] },
      }),
    ).toBe(3);
    expect(exitCodeOf({ status: 'Failure', message: 'container not found' })).toBeNull();
    expect(exitCodeOf(null)).toBeNull();
  });
});
