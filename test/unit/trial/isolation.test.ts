import { describe, expect, it } from 'vitest';
import { SandboxError } from '../../../src/errors.ts';
import type { SandboxHealth } from '../../../src/sandbox/types.ts';
import { confirmHost, gradingView } from '../../../src/trial/isolation.ts';
import { fakeSandbox } from '../checks/helpers.ts';

const withHealth = (h: SandboxHealth, exec?: Error) => ({ ...fakeSandbox(exec ?? {}), health: async () => h });

describe('grading on a host that is going away', () => {
  it('commands its daemon cut short are no verdicts: the grading is infrastructure (retried), not FAILED', async () => {
    const err = await confirmHost(
      withHealth({ daemon: false, lost: 'the daemon does not answer', state: 'unknown' }),
      'its checks ran',
    ).catch((e) => e);
    expect(err).toBeInstanceOf(SandboxError);
    expect(err).toMatchObject({
      retryable: true,
      daemon: 'unreachable',
      message: expect.stringContaining('the daemon does not answer'),
    });
    await expect(
      confirmHost(withHealth({ daemon: true, state: 'stopped', exitCode: 143, killedByInfrastructure: 'Docker' }), 'x'),
    ).rejects.toThrow(/killed by Docker/);
  });

  it('a sandbox the agent left stopped on a healthy daemon is still graded (its checks fail)', async () => {
    await expect(
      confirmHost(withHealth({ daemon: true, state: 'stopped', exitCode: 143 }), 'x'),
    ).resolves.toBeUndefined();
  });

  it('a grading command refused by a daemon that is going away throws (SANDBOX_ERROR), not exit 126', async () => {
    const refused = new SandboxError('exec failed in sandbox: container is not running', new Error('x'), true, {
      daemon: 'answered',
      service: 'stopped',
    });
    const view = gradingView(
      withHealth({ daemon: false, lost: 'the daemon does not answer', state: 'unknown' }, refused),
    );
    await expect(view.exec('sh .tests/test.sh')).rejects.toBe(refused);
    const healthy = gradingView(withHealth({ daemon: true, state: 'stopped', exitCode: 143 }, refused));
    expect((await healthy.exec('sh .tests/test.sh')).exitCode).toBe(126);
  });
});
