import { describe, expect, it } from 'vitest';
import { SandboxError } from '../../../src/errors.ts';
import type { SandboxHealth } from '../../../src/sandbox/types.ts';
import { blame, blameAgentError, confirmSidecars } from '../../../src/trial/blame.ts';
import { fakeSandbox } from '../checks/helpers.ts';

const withHealth = (h: SandboxHealth) => ({ ...fakeSandbox({}), health: async () => h });
/** A failure the daemon answered, as the provider reports it (sandbox/docker/client.ts dockerFacts for Docker). */
const answered = (status: number, message: string) =>
  new SandboxError(`exec failed in sandbox: ${message}`, new Error(message), true, {
    daemon: 'answered',
    ...(status === 404 ? { service: 'gone' as const } : status === 409 ? { service: 'stopped' as const } : {}),
  });

describe('blame for a Docker failure once the agent had its sandbox', () => {
  it('a stopped container on a healthy daemon is the agent: AGENT_ERROR with the container state', async () => {
    const e = await blame(
      answered(409, 'container is not running'),
      withHealth({ daemon: true, state: 'stopped', exitCode: 137 }),
    );
    expect(e.kind).toBe('agent');
    expect(e.message).toMatch(/container stopped, exit 137.*the agent's doing.*container is not running/);
  });

  it('so is one killed for memory, or one still running that refused the call', async () => {
    expect(
      (await blame(answered(409, 'x'), withHealth({ daemon: true, state: 'stopped', oomKilled: true }))).message,
    ).toMatch(/killed for memory/);
    expect((await blame(answered(500, 'chdir failed'), withHealth({ daemon: true, state: 'running' }))).kind).toBe(
      'agent',
    );
  });

  it('the daemon not answering, a timeout or a removed container stays infrastructure (SANDBOX_ERROR, retried)', async () => {
    const down = await blame(answered(409, 'x'), withHealth({ daemon: false, state: 'unknown' }));
    expect(down).toMatchObject({ kind: 'sandbox' });
    expect(down.retryable).not.toBe(false);
    expect(
      (
        await blame(
          new SandboxError('Docker did not answer within 30000 ms: exec'),
          withHealth({ daemon: true, state: 'running' }),
        )
      ).kind,
    ).toBe('sandbox');
    expect((await blame(answered(404, 'no such container'), withHealth({ daemon: true, state: 'gone' }))).kind).toBe(
      'sandbox',
    );
  });

  it('a host that is going away is never the agent, however its daemon answered on the way out', async () => {
    // Its old connection answered "not running"; a fresh one is refused: the daemon does not count.
    const lost = await blame(
      answered(409, 'container is not running'),
      withHealth({ daemon: false, lost: 'the daemon does not answer', state: 'unknown' }),
    );
    expect(lost).toMatchObject({ kind: 'sandbox', sandbox: { daemon: false, lost: 'the daemon does not answer' } });
    // Stopped by Docker itself (its shutdown, its API), which the agent cannot reach.
    const killed = await blame(
      answered(409, 'container is not running'),
      withHealth({ daemon: true, state: 'stopped', exitCode: 143, killedByDocker: true }),
    );
    expect(killed).toMatchObject({ kind: 'sandbox', sandbox: { killedByDocker: true } });
  });

  it('the blamed error keeps what the provider knew of the sandbox', async () => {
    const e = await blame(answered(409, 'x'), withHealth({ daemon: true, state: 'stopped', exitCode: 143 }));
    expect(e).toMatchObject({ kind: 'agent', sandbox: { daemon: true, state: 'stopped', exitCode: 143 } });
  });

  it("the agent's own error over a lost host is infrastructure; over a healthy one it stays the agent's", async () => {
    const own = { kind: 'agent' as const, message: 'my command exited 137' };
    const lost = await blameAgentError(
      own,
      withHealth({ daemon: false, lost: 'the daemon does not answer', state: 'unknown' }),
    );
    expect(lost).toMatchObject({ kind: 'sandbox', message: expect.stringContaining('my command exited 137') });
    expect(lost.retryable).not.toBe(false);
    expect(await blameAgentError(own, withHealth({ daemon: true, state: 'stopped', exitCode: 137 }))).toBe(own);
    expect(await blameAgentError(own, undefined)).toBe(own);
  });

  it('decides from the error value the provider gave, not from the shape of a client library error', async () => {
    // A library error with an HTTP status, but no facts from the provider: the daemon is not known to have answered.
    const raw = new SandboxError('exec failed', Object.assign(new Error('x'), { statusCode: 409 }));
    expect(raw.daemon).toBe('unreachable');
    expect((await blame(raw, withHealth({ daemon: true, state: 'stopped', exitCode: 137 }))).kind).toBe('sandbox');
    // The provider says the daemon answered that the service stopped: the agent's doing on a healthy daemon.
    const stopped = new SandboxError('exec failed', undefined, true, { daemon: 'answered', service: 'stopped' });
    expect((await blame(stopped, withHealth({ daemon: true, state: 'stopped', exitCode: 137 }))).kind).toBe('agent');
    // Killed for memory, the daemon answering: the agent's, as before.
    const oom = new SandboxError('exec failed', undefined, true, { daemon: 'answered', service: 'oom' });
    const e = await blame(oom, withHealth({ daemon: true, state: 'stopped', oomKilled: true, exitCode: 137 }));
    expect(e).toMatchObject({ kind: 'agent', sandbox: { oomKilled: true } });
    expect(e.message).toMatch(/killed for memory/);
    // The daemon did not answer (a timeout, a dropped connection): infrastructure, whatever the sandbox looks like now.
    const silent = new SandboxError('Docker did not answer within 30000 ms: exec', undefined, true, {
      daemon: 'unreachable',
    });
    expect((await blame(silent, withHealth({ daemon: true, state: 'running' }))).kind).toBe('sandbox');
  });

  describe('with services beside main (docs/sandboxes.md#multi-service-environments)', () => {
    const running = withHealth({ daemon: true, state: 'running' });

    it('a call to a service taken away (gone, or killed by Docker) is infrastructure, naming it, though main is fine', async () => {
      const gone = await blame(answered(404, 'no such container'), running, {
        db: withHealth({ daemon: true, state: 'gone' }),
      });
      expect(gone).toMatchObject({ kind: 'sandbox', sandbox: { state: 'gone' } });
      expect(gone.message).toMatch(/^service db was lost during the trial \(container gone\)/);
      const killed = await blameAgentError({ kind: 'agent', message: 'db did not answer' }, running, {
        web: running,
        db: withHealth({ daemon: true, state: 'stopped', exitCode: 137, killedByDocker: true }),
      });
      expect(killed).toMatchObject({
        kind: 'sandbox',
        message: expect.stringMatching(/service db was lost.*killed by Docker.*db did not answer/),
      });
    });

    it('a service the agent stopped (or ran out of memory) is its doing', async () => {
      const stopped = await blame(answered(409, 'container is not running'), running, {
        db: withHealth({ daemon: true, state: 'stopped', exitCode: 143 }),
      });
      expect(stopped.kind).toBe('agent');
      const own = { kind: 'agent' as const, message: 'x' };
      expect(
        await blameAgentError(own, running, {
          db: withHealth({ daemon: true, state: 'stopped', oomKilled: true, exitCode: 137 }),
        }),
      ).toBe(own);
    });

    it('after the checks: a lost service throws (SANDBOX_ERROR); a stopped one is noted; a completed one is not', async () => {
      await expect(
        confirmSidecars(
          { db: withHealth({ daemon: false, lost: 'the daemon does not answer', state: 'unknown' }) },
          () => {},
        ),
      ).rejects.toThrow(/service db was lost during the trial \(the daemon does not answer\)/);
      const notes: string[] = [];
      await confirmSidecars(
        {
          db: withHealth({ daemon: true, state: 'stopped', oomKilled: true, exitCode: 137 }),
          init: withHealth({ daemon: true, state: 'stopped', exitCode: 0 }),
          web: running,
        },
        (l) => notes.push(l),
      );
      expect(notes).toEqual([
        "service db stopped during the trial (container stopped, killed for memory, exit 137): the agent's doing (it reaches it); graded as it was left",
      ]);
    });
  });
});
