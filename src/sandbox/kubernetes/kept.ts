// What `--keep-sandbox` prints for a kept environment on Kubernetes (docs/kubernetes.md#kept-pods):
// kubectl lines to enter each service's pod, and to remove the trial's pods, Service and
// NetworkPolicy by its label, or every kept one of the run with `sandbox cleanup --run … --provider kubernetes`.
import { shellWord } from '../docker/labels.ts';
import type { Environment } from '../provider.ts';
import type { ClusterSpec } from '../types.ts';
import { K8S_LABEL } from './objects.ts';

export function podKeptLines(env: Environment, trial: string, s: ClusterSpec, runDir: string): string[] {
  const kubectl = `kubectl${s.context ? ` --context ${s.context}` : ''} -n ${s.namespace}`;
  const cleanup = `benchrig sandbox cleanup --run ${shellWord(runDir)} --provider kubernetes --namespace ${s.namespace}${s.context ? ` --kube-context ${s.context}` : ''}`;
  const enter = (pod: string) => `sandbox kept: ${kubectl} exec -it ${pod} -- sh`;
  return [
    `${enter(env.main.id)}   (remove the trial: ${kubectl} delete pods,services,networkpolicies -l ${K8S_LABEL.trial}=${trial}; this run's: ${cleanup})`,
    ...Object.entries(env.services).map(([name, service]) => `service ${name}: ${enter(service.id)}`),
    `also kept: service ${trial} (headless), networkpolicy ${trial} (removed with the trial's pods)`,
  ];
}
