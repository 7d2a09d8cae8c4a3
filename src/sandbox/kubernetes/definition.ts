// The Kubernetes provider (docs/kubernetes.md): `[run] provider = "kubernetes"` with `[run] namespace`
// and `registry`; `--push` sends the run's images there; `sandbox cleanup --provider kubernetes`
// cleans a namespace.
import { BenchrigError } from '../../errors.ts';
import type { CleanupRequest, ProviderDefinition } from '../definition.ts';
import { clusterSettings, type ClusterSpec } from './settings.ts';

export const kubernetes: ProviderDefinition<ClusterSpec> = {
  name: 'kubernetes',
  chosenBy: 'kubernetes',
  help: 'kubernetes ([run] namespace, registry)',
  docs: 'docs/kubernetes.md',
  runFlags: [
    {
      flags: '--push',
      key: 'push',
      description: 'push the images the run builds or names to [run] registry, for the cluster to pull (kubernetes)',
      config: (v) => (v ? { run: { push: true } } : {}),
    },
  ],
  settings: clusterSettings,
  make: async (s) => new (await import('./provider.ts')).KubernetesEnvironments(s),
  installedAgents: () => 'not on Kubernetes: set [run] provider = "docker" (or drop --provider kubernetes)',
  cleanup: {
    flags: [
      {
        flags: '--namespace <name>',
        key: 'namespace',
        description: 'with --provider kubernetes: the namespace to clean (over --config)',
      },
      {
        flags: '--kube-context <name>',
        key: 'kubeContext',
        description: "with --provider kubernetes: the kubeconfig's context (over --config)",
      },
    ],
    run: cleanupCluster,
  },
};

/** What dead runs left in the namespace (or one run's: `--run`), by the sweep's rule: the flags over --config's [run]. */
async function cleanupCluster(req: CleanupRequest): Promise<void> {
  const run = (req.config?.raw.run ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const namespace = str(req.flags.namespace) ?? str(run.namespace);
  const context = str(req.flags.kubeContext) ?? str(run.kube_context);
  if (!namespace)
    throw new BenchrigError(
      'usage',
      'sandbox cleanup --provider kubernetes needs --namespace (or [run] namespace in --config)',
    );
  const { KubernetesEnvironments } = await import('./provider.ts');
  const provider = new KubernetesEnvironments({
    namespace,
    ...(context ? { context } : {}),
    registry: '',
    push: false,
    deadlineSeconds: 0,
  });
  await provider.check();
  req.print(`removed ${await provider.sweep(req.which)} pod(s)`);
}
