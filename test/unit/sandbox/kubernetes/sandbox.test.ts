// A pod is ended for grading only where the agent cannot reach PID 1 or the killer (docs/kubernetes.md#grading):
// one made without the toolbox, or given capabilities, is refused before anything runs in it.
import { describe, expect, it } from 'vitest';
import { SandboxError } from '../../../../src/errors.ts';
import type { Cluster } from '../../../../src/sandbox/kubernetes/client.ts';
import { PodSandbox } from '../../../../src/sandbox/kubernetes/sandbox.ts';
import { testSpec } from '../../../support/docker.ts';

// Any call to the cluster would throw: the refusal comes first.
const noCluster = new Proxy({} as Cluster, {
  get: () => {
    throw new Error('the cluster was called');
  },
});

describe('PodSandbox before grading', () => {
  it('refuses to end the processes of a pod without the toolbox, or with capabilities added, and does not retry', async () => {
    for (const [spec, toolbox, why] of [
      [testSpec(), false, 'the pod has no toolbox'],
      [testSpec({ capAdd: ['SYS_PTRACE'] }), true, 'the pod was given capabilities (SYS_PTRACE)'],
    ] as const) {
      const pod = new PodSandbox(noCluster, 'br-1-main', 'img', spec, toolbox);
      for (const end of [() => pod.restart(), () => pod.endBesideInit()]) {
        const err: unknown = await end().catch((e: unknown) => e);
        expect(err).toBeInstanceOf(SandboxError);
        expect(err).toMatchObject({ retryable: false });
        expect((err as Error).message).toContain(`could not restart the sandbox for grading: ${why}`);
      }
    }
  });
});
