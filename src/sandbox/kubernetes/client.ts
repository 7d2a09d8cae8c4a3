// The cluster as benchrig reaches it (docs/kubernetes.md#the-provider): a kubeconfig (KUBECONFIG or
// ~/.kube/config, or a file given), an optional context, and the namespace everything goes in.
import { CoreV1Api, KubeConfig, NetworkingV1Api } from '@kubernetes/client-node';

interface ClusterOptions {
  /** A kubeconfig file; default: KUBECONFIG, else ~/.kube/config. */
  kubeconfig?: string;
  /** `[run] kube_context`; default: the kubeconfig's current context. */
  context?: string;
  namespace: string;
}

export interface Cluster {
  readonly config: KubeConfig;
  readonly core: CoreV1Api;
  readonly net: NetworkingV1Api;
  readonly namespace: string;
}

export function connect(opts: ClusterOptions): Cluster {
  const config = new KubeConfig();
  if (opts.kubeconfig) config.loadFromFile(opts.kubeconfig);
  else config.loadFromDefault();
  if (opts.context) {
    if (!config.getContextObject(opts.context)) throw new Error(`the kubeconfig has no context "${opts.context}"`);
    config.setCurrentContext(opts.context);
  }
  return {
    config,
    core: config.makeApiClient(CoreV1Api),
    net: config.makeApiClient(NetworkingV1Api),
    namespace: opts.namespace,
  };
}

/** The HTTP status of a failed API call (client-node's ApiException), if it has one. */
export function apiStatus(err: unknown): number | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

/** Runs an API call that may find its object gone already (a delete in cleanup): 404 is fine. */
export async function goneIsFine(call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
  } catch (err) {
    if (apiStatus(err) !== 404) throw err;
  }
}
