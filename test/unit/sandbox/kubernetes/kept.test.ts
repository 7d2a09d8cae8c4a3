// What `--keep-sandbox` prints for an environment on Kubernetes (docs/kubernetes.md#kept-pods).
import { describe, expect, it } from 'vitest';
import { podKeptLines } from '../../../../src/sandbox/kubernetes/kept.ts';
import type { Environment } from '../../../../src/sandbox/provider.ts';
import type { Sandbox } from '../../../../src/sandbox/types.ts';

const box = (id: string) => ({ id }) as Sandbox;
const settings = { namespace: 'evals', registry: 'r:5000', push: false, deadlineSeconds: 60 };

describe('podKeptLines', () => {
  const env: Environment = { main: box('br-0123456789-main'), services: { db: box('br-0123456789-db') } };

  it('gives kubectl lines in the run namespace, never Docker commands', () => {
    const lines = podKeptLines(env, 'br-0123456789', settings, '/runs/r1');
    expect(lines[0]).toBe(
      "sandbox kept: kubectl -n evals exec -it br-0123456789-main -- sh   (remove the trial: kubectl -n evals delete pods,services,networkpolicies -l benchrig.trial=br-0123456789; this run's: benchrig sandbox cleanup --run /runs/r1 --provider kubernetes --namespace evals)",
    );
    expect(lines[1]).toBe('service db: sandbox kept: kubectl -n evals exec -it br-0123456789-db -- sh');
    expect(lines[2]).toMatch(/^also kept: service br-0123456789 \(headless\), networkpolicy br-0123456789/);
    expect(lines.join('\n')).not.toMatch(/docker/);
  });

  it("names the kubeconfig's context when the run set one", () => {
    const lines = podKeptLines(env, 'br-0123456789', { ...settings, context: 'prod' }, '/runs/r1');
    expect(lines[0]).toMatch(/^sandbox kept: kubectl --context prod -n evals exec -it /);
    expect(lines[0]).toContain('--run /runs/r1 --provider kubernetes --namespace evals --kube-context prod)');
  });
});
