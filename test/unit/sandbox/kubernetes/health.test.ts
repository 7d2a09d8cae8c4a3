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
      outOfMemory: true,
    });
  });

  it('a pod evicted past its own disk bound is stopped (the agent wrote it); a pending one unknown', () => {
    const disk = 'Pod ephemeral local storage usage exceeds the total limit of containers 52428800.';
    expect(healthOf({ status: { phase: 'Failed', reason: 'Evicted', message: disk } })).toEqual({
      daemon: true,
      state: 'stopped',
    });
    expect(healthOf({ status: { phase: 'Pending' } })).toEqual({ daemon: true, state: 'unknown' });
  });

  it('a pod the cluster ended for its own sake (node pressure, deadline) is killed by the infrastructure', () => {
    const memory = { phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.' };
    expect(healthOf({ status: memory })).toEqual({
      daemon: true,
      state: 'stopped',
      killedByInfrastructure: 'Kubernetes',
    });
    const ended = { name: 'main', state: { terminated: { exitCode: 137, reason: 'Error' } } };
    expect(
      healthOf({ status: { phase: 'Failed', reason: 'DeadlineExceeded', containerStatuses: [ended as never] } }),
    ).toEqual({ daemon: true, state: 'stopped', killedByInfrastructure: 'Kubernetes', exitCode: 137 });
  });
});
