// What a failed Docker call says crosses the seam as a SandboxError's facts (docs/sandboxes.md#who-is-blamed):
// dockerode's error shape is read here, in sandbox/, and nowhere else.
import { describe, expect, it } from 'vitest';
import { SandboxError } from '../../../../src/errors.ts';
import { dockerError, dockerFacts, withDeadline } from '../../../../src/sandbox/docker/client.ts';

const status = (statusCode: number) => Object.assign(new Error(`(HTTP code ${statusCode})`), { statusCode });

describe('Docker failures as SandboxError values', () => {
  it('an HTTP status is an answer of the daemon; 404 says the container is gone, 409 that it is not running', () => {
    expect(dockerFacts(status(404))).toEqual({ daemon: 'answered', service: 'gone' });
    expect(dockerFacts(status(409))).toEqual({ daemon: 'answered', service: 'stopped' });
    expect(dockerFacts(status(500))).toEqual({ daemon: 'answered' });
  });

  it('no status (a refused or dropped connection) is a daemon that did not answer', () => {
    expect(dockerFacts(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toEqual({
      daemon: 'unreachable',
    });
    const e = dockerError('exec failed in sandbox: x', status(409));
    expect(e).toBeInstanceOf(SandboxError);
    expect(e).toMatchObject({ daemon: 'answered', service: 'stopped', retryable: true });
  });

  it('a call past its deadline did not get an answer', async () => {
    const err = await withDeadline(new Promise(() => {}), 5, 'exec').catch((e: unknown) => e);
    expect(err).toMatchObject({ daemon: 'unreachable' });
    expect((err as SandboxError).service).toBeUndefined();
  });
});
