// The Kubernetes objects of one trial (docs/kubernetes.md#the-provider): a pod per service, one
// headless Service that gives each service its DNS name, and a NetworkPolicy that keeps traffic
// inside the trial. Plain builders: nothing here talks to a cluster.
import type { V1NetworkPolicy, V1Pod, V1PodSpec, V1Service } from '@kubernetes/client-node';
import { KEEP_ALIVE_SCRIPT, TOOLBOX_INIT, TOOLBOX_MOUNT } from '../docker/toolbox.ts';
import type { SandboxLabels, SandboxSpec } from '../types.ts';
import { buildLabels } from '../docker/labels.ts';

/** Labels that only Kubernetes objects carry: which trial and which of its services. */
export const K8S_LABEL = { trial: 'benchrig.trial', service: 'benchrig.service' } as const;
/** The one container of every pod; exec and copies go to it. */
export const CONTAINER = 'main';
/**
 * What a pod without the toolbox runs until it is deleted: nothing, through the image's own shell.
 * Only for pods made without the toolbox (the provider always gives it): the agent can trace that
 * shell, so such a pod is never ended for grading (PodSandbox refuses). Like KEEP_ALIVE below, it
 * ignores the signals a process in the pod can send it; the kubelet's SIGKILL ends it (137: an
 * evicted pod is `Failed`, its eviction, the disk bound, kept).
 */
const IDLE = ['sh', '-c', 'trap "" TERM INT HUP QUIT USR1 USR2; while :; do sleep 86399 & wait $!; done'];

/** The container runtime's default seccomp profile (containerd's is Docker's): on the pod and each container. */
const RUNTIME_DEFAULT = { type: 'RuntimeDefault' } as const;

export interface PodInput {
  /** The trial's name: a DNS label, unique in the namespace (names.ts). */
  trial: string;
  /** The service's name in the environment (`main` for the agent's). */
  service: string;
  spec: SandboxSpec;
  labels: SandboxLabels;
  /** `activeDeadlineSeconds`: the kubelet ends the pod after this long, if no harness is left to. */
  deadlineSeconds: number;
  /** The image as the cluster pulls it (the registry's reference). */
  image: string;
  /** `[run] runtime_class` (e.g. gVisor). */
  runtimeClass?: string;
  /** The harness's toolbox image (toolbox.ts): copied into a read-only folder at /.benchrig of the pod. */
  toolbox?: string;
  /** The cluster's DNS domain (default cluster.local). */
  clusterDomain?: string;
  namespace: string;
}

/** A label value Kubernetes accepts: at most 63 of [A-Za-z0-9_.-], alphanumeric at both ends. */
export function labelValue(v: string): string {
  const s = v.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 63);
  return s.replace(/^[^A-Za-z0-9]+/, '').replace(/[^A-Za-z0-9]+$/, '');
}

/** The owner labels of every object of the trial (the sweep's keys, as on Docker), plus the trial's. */
function trialLabels(labels: SandboxLabels, trial: string): Record<string, string> {
  const owner = buildLabels(labels);
  const out: Record<string, string> = { [K8S_LABEL.trial]: trial };
  for (const [k, v] of Object.entries(owner)) out[k] = labelValue(v);
  return out;
}

/** Docker's sizes ("512m", "10g", bytes) as a Kubernetes quantity in bytes. */
export function quantity(size: string): string {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$/i.exec(size);
  if (!m) throw new Error(`invalid size ${JSON.stringify(size)} (use e.g. "512m" or "2g")`);
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 }[m[2].toLowerCase() as 'k'];
  return String(Math.round(parseFloat(m[1]) * unit));
}

/**
 * Limits from `[sandbox]`; requests reserve the memory in full but a tenth of the cpu and disk, as
 * Docker reserves none: with requests = limits a 2-core node schedules two 1-cpu trials at once.
 */
function resources(spec: SandboxSpec): { limits: Record<string, string>; requests: Record<string, string> } {
  const limits: Record<string, string> = { cpu: String(spec.cpus), memory: quantity(spec.memory) };
  const requests: Record<string, string> = {
    cpu: `${Math.max(10, Math.round(spec.cpus * 100))}m`,
    memory: limits.memory,
  };
  if (spec.disk) {
    limits['ephemeral-storage'] = quantity(spec.disk);
    requests['ephemeral-storage'] = String(Math.round(Number(limits['ephemeral-storage']) / 10));
  }
  return { limits, requests };
}

/** One service's pod: bounded (cpu, memory, ephemeral-storage; `resources`), unprivileged, ended by its deadline. */
export function podFor(p: PodInput): V1Pod {
  const { limits, requests } = resources(p.spec);
  const domain = p.clusterDomain ?? 'cluster.local';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: podName(p.trial, p.service),
      labels: { ...trialLabels(p.labels, p.trial), [K8S_LABEL.service]: labelValue(p.service) },
    },
    spec: {
      restartPolicy: 'Never',
      // The backstop for a dead harness; a pod kept on purpose (`--keep-sandbox`) stays until removed, as on Docker.
      ...(p.labels.keep ? {} : { activeDeadlineSeconds: p.deadlineSeconds }),
      terminationGracePeriodSeconds: 1,
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      // `<service>.<trial>` through the trial's headless Service; the search domain makes `<service>` enough.
      hostname: p.service,
      subdomain: p.trial,
      dnsConfig: { searches: [`${p.trial}.${p.namespace}.svc.${domain}`] },
      ...(p.runtimeClass ? { runtimeClassName: p.runtimeClass } : {}),
      // The runtime's default seccomp profile, as Docker applies its own: the kubelet's default is none (Unconfined).
      securityContext: { seccompProfile: RUNTIME_DEFAULT },
      ...(p.toolbox ? toolboxParts(p.toolbox) : {}),
      containers: [
        {
          name: CONTAINER,
          image: p.image,
          command: p.toolbox ? KEEP_ALIVE : IDLE,
          // The keep-alive waits on its stdin, which the runtime keeps open and nobody writes.
          ...(p.toolbox
            ? { stdin: true, volumeMounts: [{ name: TOOLBOX_VOLUME, mountPath: TOOLBOX_MOUNT, readOnly: true }] }
            : {}),
          workingDir: p.spec.workdir,
          env: Object.entries(p.spec.env ?? {}).map(([name, value]) => ({ name, value })),
          resources: { requests, limits },
          securityContext: {
            privileged: false,
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'], ...(p.spec.capAdd?.length ? { add: p.spec.capAdd } : {}) },
            seccompProfile: RUNTIME_DEFAULT,
          },
        },
      ],
    },
  };
}

const TOOLBOX_VOLUME = 'benchrig-toolbox';
/**
 * The main pod's PID 1 with the toolbox (PodSandbox.restart keeps it): the keep-alive Docker's
 * sandboxes run (docker/toolbox.ts KEEP_ALIVE_SCRIPT) in the shell of the untraceable copy, which no
 * process without capabilities may trace or read; its stdin kept open by `stdin: true`.
 */
const KEEP_ALIVE = [TOOLBOX_INIT, 'sh', '-c', KEEP_ALIVE_SCRIPT];
/**
 * Fills the toolbox folder as Docker's toolbox volume holds it (docker/toolbox.ts): busybox, its
 * applets as links (bin/), and the copy that can be run but not read (init/busybox, mode 0111).
 */
const FILL =
  '/busybox cp /busybox /t/busybox && /busybox mkdir /t/bin /t/init && /busybox cp /busybox /t/init/busybox && /busybox chmod 0111 /t/init/busybox && for a in $(/busybox --list); do /busybox ln -s ../busybox /t/bin/$a; done';

/** The init container that fills the pod's toolbox folder (an emptyDir), hardened as the pod's own. */
function toolboxParts(image: string): Pick<V1PodSpec, 'initContainers' | 'volumes'> {
  return {
    volumes: [{ name: TOOLBOX_VOLUME, emptyDir: { sizeLimit: '16Mi' } }],
    initContainers: [
      {
        name: 'toolbox',
        image,
        command: ['/busybox', 'sh', '-c', FILL],
        volumeMounts: [{ name: TOOLBOX_VOLUME, mountPath: '/t' }],
        resources: { limits: { cpu: '100m', memory: '32Mi' }, requests: { cpu: '10m', memory: '32Mi' } },
        securityContext: {
          privileged: false,
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'] },
          seccompProfile: RUNTIME_DEFAULT,
        },
      },
    ],
  };
}

/** The pod's name: `<trial>-<service>` (names.ts keeps both DNS labels short enough). */
export const podName = (trial: string, service: string): string => `${trial}-${service}`;

/** The trial's headless Service: `<service>.<trial>` resolves to that service's pod. */
export function headlessService(trial: string, labels: SandboxLabels): V1Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: trial, labels: trialLabels(labels, trial) },
    spec: { clusterIP: 'None', publishNotReadyAddresses: true, selector: { [K8S_LABEL.trial]: trial } },
  };
}

/** The cluster's DNS servers as pods reach them after the `kube-dns` Service: addresses and ports. */
export interface ClusterDns {
  ips: string[];
  ports: number[];
}

/**
 * The trial's NetworkPolicy: its pods take traffic only from each other, and send it only to each
 * other and to the cluster's DNS; `network = "bridge"` adds egress to `egressCidr` (default anywhere).
 */
export function networkPolicy(
  trial: string,
  labels: SandboxLabels,
  network: SandboxSpec['network'],
  opts: { dns?: ClusterDns; egressCidr?: { cidr: string; except?: string[] } } = {},
): V1NetworkPolicy {
  const same = [{ podSelector: { matchLabels: { [K8S_LABEL.trial]: trial } } }];
  const dns = (opts.dns?.ports ?? [53]).flatMap((port) => [
    { protocol: 'UDP', port },
    { protocol: 'TCP', port },
  ]);
  // The DNS servers' own addresses when known (the Service's endpoints: policies see traffic after its DNAT).
  const servers = opts.dns?.ips.length ? { to: opts.dns.ips.map((ip) => ({ ipBlock: { cidr: `${ip}/32` } })) } : {};
  const egress: NonNullable<NonNullable<V1NetworkPolicy['spec']>['egress']> = [
    { to: same },
    { ports: dns, ...servers },
  ];
  if (network === 'bridge') egress.push({ to: [{ ipBlock: opts.egressCidr ?? { cidr: '0.0.0.0/0' } }] });
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: trial, labels: trialLabels(labels, trial) },
    spec: {
      podSelector: { matchLabels: { [K8S_LABEL.trial]: trial } },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [{ _from: same }],
      egress,
    },
  };
}
