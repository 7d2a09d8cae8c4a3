import { describe, expect, it } from 'vitest';
import {
  CONTAINER,
  headlessService,
  labelValue,
  networkPolicy,
  podFor,
  quantity,
} from '../../../../src/sandbox/kubernetes/objects.ts';
import { servicePod } from '../../../../src/sandbox/kubernetes/service-pods.ts';
import { testSpec } from '../../../support/docker.ts';

const labels = { runId: 'run-1', sessionId: 'run-1-s', pid: 4242 };
const podInput = (over: Parameters<typeof testSpec>[0] = {}, extra: { runtimeClass?: string } = {}) => ({
  trial: 'br-abc',
  service: 'main',
  spec: testSpec({ memory: '512m', disk: '1g', cpus: 2, ...over }),
  labels,
  deadlineSeconds: 900,
  image: '127.0.0.1:5100/benchrig/busybox:1',
  namespace: 'ns',
  ...extra,
});
const pod = (over: Parameters<typeof testSpec>[0] = {}, extra: { runtimeClass?: string } = {}) =>
  podFor(podInput(over, extra));

describe('podFor', () => {
  it('labels the pod for the sweep: run, session, harness pid and host, trial and service', () => {
    const l = pod().metadata?.labels ?? {};
    expect(l).toMatchObject({
      benchrig: '1',
      'benchrig.run': 'run-1',
      'benchrig.session': 'run-1-s',
      'benchrig.pid': '4242',
      'benchrig.trial': 'br-abc',
      'benchrig.service': 'main',
    });
    expect(l['benchrig.host']).toMatch(/\S/);
    expect(pod().metadata?.name).toBe('br-abc-main');
  });

  it('limits cpu, memory and ephemeral-storage; reserves the memory, a tenth of cpu and disk; ends by its deadline', () => {
    const spec = pod().spec;
    expect(spec?.containers[0].resources).toEqual({
      limits: { cpu: '2', memory: String(512 * 1024 ** 2), 'ephemeral-storage': String(1024 ** 3) },
      requests: {
        cpu: '200m',
        memory: String(512 * 1024 ** 2),
        'ephemeral-storage': String(Math.round(1024 ** 3 / 10)),
      },
    });
    expect(spec?.activeDeadlineSeconds).toBe(900);
    expect(spec?.restartPolicy).toBe('Never');
    // A pod kept on purpose (--keep-sandbox) stays until removed, as a kept container does.
    const kept = podFor({ ...podInput(), labels: { ...labels, keep: true } }).spec;
    expect(kept).not.toHaveProperty('activeDeadlineSeconds');
    const bare = pod({ disk: undefined, cpus: 0.05 }).spec?.containers[0].resources;
    expect(bare?.limits).not.toHaveProperty('ephemeral-storage');
    expect(bare?.requests?.cpu).toBe('10m');
  });

  it("drops every capability, forbids privilege escalation, runs under the runtime's seccomp profile, mounts no token", () => {
    const spec = pod().spec;
    expect(spec?.containers[0].securityContext).toEqual({
      privileged: false,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(spec?.securityContext?.seccompProfile).toEqual({ type: 'RuntimeDefault' });
    // The toolbox's init container too: every container of the pod.
    const withToolbox = podFor({ ...podInput(), toolbox: '127.0.0.1:5100/benchrig/toolbox:1' }).spec;
    for (const c of [...(withToolbox?.initContainers ?? []), ...(withToolbox?.containers ?? [])])
      expect(c.securityContext?.seccompProfile, c.name).toEqual({ type: 'RuntimeDefault' });
    expect(withToolbox?.initContainers).toHaveLength(1);
    expect(spec?.automountServiceAccountToken).toBe(false);
    expect(spec?.enableServiceLinks).toBe(false);
    expect(pod({ capAdd: ['NET_ADMIN'] }).spec?.containers[0].securityContext?.capabilities).toEqual({
      drop: ['ALL'],
      add: ['NET_ADMIN'],
    });
  });

  it('runs the image idle in its workdir with its env; the service name resolves through the trial', () => {
    const spec = pod({ env: { A: '1' } }, { runtimeClass: 'gvisor' }).spec;
    const c = spec?.containers[0];
    expect(c).toMatchObject({ name: CONTAINER, image: '127.0.0.1:5100/benchrig/busybox:1', workingDir: '/workspace' });
    expect(c?.env).toEqual([{ name: 'A', value: '1' }]);
    expect(spec).toMatchObject({ hostname: 'main', subdomain: 'br-abc', runtimeClassName: 'gvisor' });
    expect(spec?.dnsConfig?.searches).toEqual(['br-abc.ns.svc.cluster.local']);
  });
});

describe("the toolbox's parts of a pod", () => {
  const toolbox = '127.0.0.1:5100/benchrig/toolbox:1';
  const svc = { env: {}, capAdd: [], command: ['postgres'], stdinOpen: false } as unknown as Parameters<
    typeof servicePod
  >[1];

  it('PID 1 is the untraceable copy of its shell, waiting on a stdin the runtime keeps open; the init container makes that copy', () => {
    const spec = podFor({ ...podInput(), toolbox }).spec;
    const main = spec?.containers[0];
    expect(main?.command?.slice(0, 3)).toEqual(['/.benchrig/init/busybox', 'sh', '-c']);
    expect(main?.command?.[3]).toMatch(/trap : CHLD; while :; do read -r _/);
    expect(main?.stdin).toBe(true);
    expect(main?.volumeMounts).toEqual([{ name: 'benchrig-toolbox', mountPath: '/.benchrig', readOnly: true }]);
    const fill = spec?.initContainers?.[0].command?.join(' ') ?? '';
    expect(fill).toContain('/busybox cp /busybox /t/init/busybox && /busybox chmod 0111 /t/init/busybox');
  });

  it("a service's pod runs the service's own process, with a stdin only if compose's stdin_open asks", () => {
    const c = servicePod({ ...podInput(), service: 'db', toolbox }, svc).spec?.containers[0];
    expect(c?.command).toBeUndefined();
    expect(c?.args).toEqual(['postgres']);
    expect(c).not.toHaveProperty('stdin');
    expect(
      servicePod({ ...podInput(), service: 'db', toolbox }, { ...svc, stdinOpen: true }).spec?.containers[0].stdin,
    ).toBe(true);
  });
});

describe('the trial objects', () => {
  it('a headless Service that selects the trial, ready or not', () => {
    const svc = headlessService('br-abc', labels);
    expect(svc.metadata?.name).toBe('br-abc');
    expect(svc.spec).toEqual({
      clusterIP: 'None',
      publishNotReadyAddresses: true,
      selector: { 'benchrig.trial': 'br-abc' },
    });
  });

  it('a NetworkPolicy: ingress from the trial only, egress to the trial and DNS only without network', () => {
    const pol = networkPolicy('br-abc', labels, 'none');
    const same = [{ podSelector: { matchLabels: { 'benchrig.trial': 'br-abc' } } }];
    expect(pol.spec?.podSelector).toEqual({ matchLabels: { 'benchrig.trial': 'br-abc' } });
    expect(pol.spec?.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(pol.spec?.ingress).toEqual([{ _from: same }]);
    expect(pol.spec?.egress).toEqual([
      { to: same },
      {
        ports: [
          { protocol: 'UDP', port: 53 },
          { protocol: 'TCP', port: 53 },
        ],
      },
    ]);
    expect(JSON.stringify(pol)).not.toContain('0.0.0.0/0');
  });

  it('network = "bridge" adds egress to the range given', () => {
    const open = networkPolicy('br-abc', labels, 'bridge').spec?.egress ?? [];
    expect(open.at(-1)).toEqual({ to: [{ ipBlock: { cidr: '0.0.0.0/0' } }] });
    const fenced = networkPolicy('br-abc', labels, 'bridge', {
      egressCidr: { cidr: '0.0.0.0/0', except: ['10.0.0.0/8'] },
    });
    expect(fenced.spec?.egress?.at(-1)).toEqual({ to: [{ ipBlock: { cidr: '0.0.0.0/0', except: ['10.0.0.0/8'] } }] });
  });
});

describe('values', () => {
  it('sizes as byte quantities; a bad size is refused by name', () => {
    expect(quantity('512m')).toBe('536870912');
    expect(quantity('1.5g')).toBe(String(1.5 * 1024 ** 3));
    expect(quantity('100')).toBe('100');
    expect(() => quantity('lots')).toThrow(/invalid size "lots"/);
  });

  it('label values Kubernetes accepts (63 characters, alphanumeric ends)', () => {
    expect(labelValue('run:2026/12/02')).toBe('run_2026_12_02');
    expect(labelValue(`-${'a'.repeat(80)}`)).toBe('a'.repeat(62));
  });
});
