// Every container benchrig starts gets every hardening (sandbox/docker/hardened.ts, docs/sandboxes.md):
// one of each kind started on the real daemon through the code that starts it in a run — a main
// sandbox, a compose service beside it, a fresh grading copy of both, and a throwaway helper — and
// each inspected for what Docker actually applied.
import os from 'node:os';
import type Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import type { EnvironmentSpec, ServiceSpec } from '../../../../src/environment/spec.ts';
import { docker } from '../../../../src/sandbox/docker/client.ts';
import { DockerEnvironments } from '../../../../src/sandbox/docker/environments.ts';
import { withHelperContainer } from '../../../../src/sandbox/docker/helper-container.ts';
import type { Environment } from '../../../../src/sandbox/provider.ts';
import { benchrigContainers, requireDocker, TEST_IMAGE, testRunId, testSpec } from '../../../support/docker.ts';

const ok = await requireDocker();
const runId = testRunId('hardened');
const MB = 1024 ** 2;

const service = (over: Partial<ServiceSpec> = {}): ServiceSpec => ({
  image: TEST_IMAGE,
  env: {},
  ulimits: {},
  tmpfs: {},
  stdinOpen: false,
  tty: false,
  labels: {},
  dependsOn: {},
  mounts: [],
  networks: { default: { aliases: [] } },
  expose: [],
  capAdd: [],
  ...over,
});

/** main and a sidecar with bounds of its own, a capability given back and no init (its named relaxations). */
const environment: EnvironmentSpec = {
  main: 'main',
  services: {
    main: service(),
    side: service({
      command: ['sleep', '3600'],
      memoryBytes: 96 * MB,
      cpus: 0.25,
      pids: 33,
      capAdd: ['NET_BIND_SERVICE'],
      init: false,
    }),
  },
  volumes: {},
  networks: { default: { internal: false, labels: {} } },
  internet: false,
  order: ['side', 'main'],
};

interface Expected {
  memory: number;
  nanoCpus: number;
  pids: number;
  network: string | RegExp;
  capAdd: string[];
  init: boolean;
  log: string;
  readOnly: boolean;
  labels: Record<string, string>;
}

/** Every hardening property, as the daemon reports it. */
function expectHardened(kind: string, info: Docker.ContainerInspectInfo, e: Expected): void {
  const hc = info.HostConfig;
  expect(hc.CapDrop, kind).toEqual(['ALL']);
  expect(hc.CapAdd ?? [], kind).toEqual(e.capAdd);
  expect(hc.SecurityOpt, kind).toEqual(['no-new-privileges']); // and so Docker's default seccomp profile
  expect(hc.Privileged, kind).toBe(false);
  expect(hc.Memory, kind).toBe(e.memory);
  expect(hc.MemorySwap, kind).toBe(e.memory);
  expect(hc.NanoCpus, kind).toBe(e.nanoCpus);
  expect(hc.PidsLimit, kind).toBe(e.pids);
  expect(hc.NetworkMode, kind).toMatch(e.network);
  expect(hc.Init ?? false, kind).toBe(e.init);
  expect(hc.LogConfig?.Type, kind).toBe(e.log);
  expect(hc.ReadonlyRootfs, kind).toBe(e.readOnly);
  expect(hc.Binds ?? [], kind).toEqual([]);
  expect(hc.PidMode ?? '', kind).toBe('');
  expect(hc.IpcMode, kind).not.toBe('host');
  expect(hc.Devices ?? [], kind).toEqual([]);
  expect(info.Config.Labels, kind).toMatchObject(e.labels);
  // Nothing from the host: named volumes only.
  for (const m of info.Mounts) expect(m.Type, `${kind}: ${m.Destination}`).toBe('volume');
}

const inspect = (id: string) => docker().getContainer(id).inspect();

describe.skipIf(!ok)('every container benchrig starts is hardened', () => {
  const provider = new DockerEnvironments();
  const started: Environment[] = [];

  afterAll(async () => {
    for (const env of started.reverse()) await provider.stop(env, { interrupted: false }).catch(() => undefined);
    await provider.sweep({ runId });
    expect(await benchrigContainers(runId)).toEqual([]);
  });

  it('a main sandbox, a compose service and a fresh grading copy of both', async () => {
    const spec = testSpec({ memory: '200m', cpus: 0.5, pids: 77 });
    const env = await provider.start(spec, { runId, sessionId: 'h-1' }, { environment });
    started.push(env);
    const copy = await provider.start(spec, { runId, sessionId: 'h-1.grading' }, { beside: env, environment });
    started.push(copy);
    const owner = (session: string) => ({
      benchrig: '1',
      'benchrig.run': runId,
      'benchrig.session': session,
      'benchrig.pid': String(process.pid),
      'benchrig.host': os.hostname(),
    });
    const main: Expected = {
      memory: 200 * MB,
      nanoCpus: 5e8,
      pids: 77,
      network: /^benchrig-/, // the trial's own (internal) network
      capAdd: [],
      init: false, // its PID 1 is the toolbox's keep-alive (toolbox.ts KEEP_ALIVE)
      log: 'none',
      readOnly: false, // the agent works in it
      labels: {},
    };
    const side: Expected = {
      ...main,
      memory: 96 * MB,
      nanoCpus: 2.5e8,
      pids: 33,
      capAdd: ['NET_BIND_SERVICE'],
      init: false,
      log: 'json-file',
    };
    for (const [kind, e] of [
      ['main', env],
      ['grading copy', copy],
    ] as const) {
      const session = kind === 'main' ? 'h-1' : 'h-1.grading';
      expectHardened(`${kind}: main`, await inspect(e.main.id), { ...main, labels: owner(session) });
      expectHardened(`${kind}: side`, await inspect(e.services.side.id), {
        ...side,
        labels: { ...owner(session), 'benchrig.service': 'side' },
      });
    }
  });

  it('a main sandbox without services, on no network', async () => {
    const env = await provider.start(testSpec({ memory: '150m', cpus: 1, pids: 50 }), { runId, sessionId: 'h-2' });
    started.push(env);
    expectHardened('main alone', await inspect(env.main.id), {
      memory: 150 * MB,
      nanoCpus: 1e9,
      pids: 50,
      network: 'none',
      capAdd: [],
      init: false,
      log: 'none',
      readOnly: false,
      labels: { 'benchrig.run': runId, 'benchrig.session': 'h-2' },
    });
  });

  it('a throwaway helper: never started, yet hardened, its root read-only', async () => {
    const info = await withHelperContainer(
      docker(),
      { image: TEST_IMAGE, purpose: 'hardening test helper', labels: { 'benchrig.run': runId } },
      (helper) => helper.inspect(),
    );
    expectHardened('helper', info, {
      memory: 64 * MB,
      nanoCpus: 5e8,
      pids: 16,
      network: 'none',
      capAdd: [],
      init: true,
      log: 'none',
      readOnly: true,
      labels: { 'benchrig.run': runId, 'benchrig.helper': os.hostname() },
    });
  });
});
