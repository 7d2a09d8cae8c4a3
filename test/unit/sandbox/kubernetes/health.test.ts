import { describe, expect, it } from 'vitest';
import { healthOf } from '../../../../src/sandbox/kubernetes/health.ts';

describe('healthOf', () => {
  it('reads the main container: running, ended with its code, OOM-killed', () => {
    expect(
      healthOf({
        status: { phase: 'Running', containerStatuses: [{ name: 'main', state: { running: {} } } as never] },
      }),
    ).toEqual({
      daemon: true,
      state: 'running',
    });
    const oom = { name: 'main', state: { terminated: { exitCode: 137, reason: 'OOMKilled' } } };
    expect(healthOf({ status: { phase: 'Failed', containerStatuses: [oom as never] } })).toEqual({
      daemon: true,
      state: 'stopped',
      exitCode: 137,
      oomKilled: true,
    });
  });

  it('an evicted pod without container status is stopped; a pending one unknown', () => {
    expect(healthOf({ status: { phase: 'Failed', reason: 'Evicted' } })).toEqual({ daemon: true, state: 'stopped' });
    expect(healthOf({ status: { phase: 'Pending' } })).toEqual({ daemon: true, state: 'unknown' });
  });
});
