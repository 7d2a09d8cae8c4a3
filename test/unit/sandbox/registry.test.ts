// The providers' registry (sandbox/registry.ts): each provider's settings made from the run's keys,
// flags and environment, refused with the key's (or file and key's) message; the flags each brings
// to `run` and `sandbox cleanup`; where an installed agent cannot run; the config's values of
// `[run] provider` are the registry's.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BenchrigError } from '../../../src/errors.ts';
import { PROVIDER_VALUES } from '../../../src/sandbox/config-keys.ts';
import type { ProviderInput } from '../../../src/sandbox/definition.ts';
import {
  loadSandboxKeys,
  cleanupFlags,
  cleanupProviders,
  installedAgentRefusal,
  PROVIDERS,
  providerHelp,
  providerNames,
  resolveProvider,
  runFlags,
  runFlagValues,
} from '../../../src/sandbox/registry.ts';
import { tempDir } from '../../support/cli.ts';

const input = (over: Partial<ProviderInput> & { run?: Record<string, unknown> } = {}): ProviderInput => ({
  sandbox: {},
  flags: {},
  env: {},
  benchmarkDir: '/bench',
  trialTimeoutS: 100,
  ...over,
  run: { provider: 'docker', push: false, ...over.run },
});

/** The error `f` throws: its kind and message (the user's one line). */
function refusal(f: () => unknown): { kind: string; message: string } {
  try {
    f();
  } catch (err) {
    if (err instanceof BenchrigError) return { kind: err.kind, message: err.message };
    throw err;
  }
  throw new Error('not refused');
}

describe('the registry of providers', () => {
  it('names each provider once, each with its folder and docs page', () => {
    expect(PROVIDERS.map((d) => d.name)).toEqual(['fleet', 'docker', 'kubernetes', 'podman']);
    expect(PROVIDERS.map((d) => d.docs)).toEqual([
      'docs/fleet.md',
      'docs/sandboxes.md',
      'docs/kubernetes.md',
      'docs/podman.md',
    ]);
  });

  it("takes for `[run] provider` exactly the configuration's values, and says them in `run --provider`'s help", () => {
    expect(providerNames()).toEqual(expect.arrayContaining([...PROVIDER_VALUES]));
    expect(providerNames()).toHaveLength(PROVIDER_VALUES.length);
    expect(providerHelp()).toBe(
      'where sandboxes run: docker (default), kubernetes ([run] namespace, registry) or podman (its service: docs/podman.md)',
    );
  });
});

describe('docker and the fleet', () => {
  it('one engine when no host is named; a fleet when the keys, a flag or DOCKER_HOST name hosts', () => {
    expect(resolveProvider(input())).toEqual({ kind: 'docker', settings: {} });
    const fromKeys = resolveProvider(input({ sandbox: { hosts: [{ url: 'tcp://a:2375', capacity: 2 }] } }));
    expect(fromKeys).toEqual({
      kind: 'fleet',
      settings: {
        hosts: [{ url: 'tcp://a:2375', capacity: 2, tls: null, source: 'from [[sandbox.hosts]] of the configuration' }],
      },
    });
    // --docker-host replaces [[sandbox.hosts]]
    const fromFlag = resolveProvider(
      input({ sandbox: { hosts: [{ url: 'tcp://a:2375', capacity: 2 }] }, flags: { dockerHost: ['tcp://b:2375=3'] } }),
    );
    expect(fromFlag).toMatchObject({ kind: 'fleet', settings: { hosts: [{ url: 'tcp://b:2375', capacity: 3 }] } });
    // `[sandbox] host_cooldown_s` is the fleet's too
    expect(
      resolveProvider(input({ sandbox: { hosts: [{ url: 'tcp://a:2375', capacity: 2 }], host_cooldown_s: 5 } })),
    ).toMatchObject({ kind: 'fleet', settings: { cooldownMs: 5000 } });
    expect(resolveProvider(input({ env: { DOCKER_HOST: 'unix:///tmp/d.sock' } }))).toMatchObject({
      kind: 'fleet',
      settings: { hosts: [{ url: 'unix:///tmp/d.sock' }] },
    });
  });

  it('refuses a bad --docker-host value and a host listed twice, naming them', () => {
    expect(refusal(() => resolveProvider(input({ flags: { dockerHost: ['http://x'] } })))).toEqual({
      kind: 'usage',
      message: '--docker-host takes URL=CAPACITY (unix:///path or tcp://host:port), got "http://x"',
    });
    expect(
      refusal(() => resolveProvider(input({ flags: { dockerHost: ['tcp://b:2375', 'tcp://b:2375=2'] } }))),
    ).toEqual({ kind: 'config', message: 'Docker host tcp://b:2375 is listed twice' });
  });

  it('checks `[sandbox] subnet_pool` at load, naming the file and key', () => {
    const at = { setBy: () => 'bench/benchmark.toml', cwd: '/', shown: (p: string) => p };
    expect(refusal(() => loadSandboxKeys({ subnet_pool: '10.0.0.0/30' }, at)).message).toMatch(
      /^bench\/benchmark\.toml: key sandbox\.subnet_pool: /,
    );
    expect(loadSandboxKeys({ subnet_pool: '10.213.0.0/16' }, at)).toEqual({});
  });

  it("makes a host's TLS files absolute, relative to the file that set them, and refuses one that is not there", () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'conf', 'tls'), { recursive: true });
    for (const f of ['ca', 'cert', 'key']) writeFileSync(join(dir, 'conf', 'tls', `${f}.pem`), f);
    const tls = { ca: 'tls/ca.pem', cert: 'tls/cert.pem', key: 'tls/key.pem' };
    const at = { setBy: () => join(dir, 'conf', 'fleet.toml'), cwd: '/', shown: (p: string) => p };
    expect(loadSandboxKeys({ hosts: [{ url: 'tcp://a:2376', capacity: 1, tls }] }, at)).toEqual({
      hosts: [
        {
          url: 'tcp://a:2376',
          capacity: 1,
          tls: {
            ca: join(dir, 'conf/tls/ca.pem'),
            cert: join(dir, 'conf/tls/cert.pem'),
            key: join(dir, 'conf/tls/key.pem'),
          },
        },
      ],
    });
    expect(
      refusal(() =>
        loadSandboxKeys({ hosts: [{ url: 'tcp://a:2376', capacity: 1, tls: { ...tls, key: 'no.pem' } }] }, at),
      ),
    ).toEqual({
      kind: 'config',
      message: `${join(dir, 'conf', 'fleet.toml')}: key sandbox.hosts[0].tls.key: file "no.pem" not found (looked at ${join(dir, 'conf', 'no.pem')})`,
    });
  });
});

describe('kubernetes', () => {
  const cluster = { provider: 'kubernetes', namespace: 'evals', registry: 'reg:5000/b/', push: true };

  it("makes the cluster's settings from [run]'s keys, the pods' deadline from the trial's timeout", () => {
    expect(resolveProvider(input({ run: { ...cluster, kube_context: 'kind', runtime_class: 'gvisor' } }))).toEqual({
      kind: 'kubernetes',
      settings: {
        context: 'kind',
        namespace: 'evals',
        registry: 'reg:5000/b',
        runtimeClass: 'gvisor',
        push: true,
        deadlineSeconds: 2 * 100 + 1800,
      },
    });
  });

  it("reads none of Docker's settings: a DOCKER_HOST (even one benchrig could not use) is no fleet beside it", () => {
    for (const env of [
      { DOCKER_HOST: 'unix:///var/run/docker.sock' },
      { DOCKER_HOST: 'tcp://box:2376', DOCKER_TLS_VERIFY: '1' },
      { DOCKER_HOST: 'ssh://me@box' },
    ])
      expect(resolveProvider(input({ run: cluster, env }))).toMatchObject({ kind: 'kubernetes' });
  });

  it('refuses a missing namespace or registry naming the key, and a fleet beside it', () => {
    expect(refusal(() => resolveProvider(input({ run: { provider: 'kubernetes', registry: 'r' } })))).toEqual({
      kind: 'config',
      message: '[run] namespace is required with provider = "kubernetes" (docs/kubernetes.md)',
    });
    expect(refusal(() => resolveProvider(input({ run: { provider: 'kubernetes', namespace: 'n' } })))).toEqual({
      kind: 'config',
      message: '[run] registry is required with provider = "kubernetes" (docs/kubernetes.md)',
    });
    expect(refusal(() => resolveProvider(input({ run: cluster, flags: { dockerHost: ['tcp://b:2375'] } })))).toEqual({
      kind: 'usage',
      message:
        '[run] provider = "kubernetes" and a fleet of Docker hosts ([[sandbox.hosts]] / --docker-host) exclude each other: keep one',
    });
  });

  it('refuses [sandbox] cap_add naming the key: a container cannot be restarted whole in its pod for grading', () => {
    expect(refusal(() => resolveProvider(input({ run: cluster, sandbox: { cap_add: ['SYS_PTRACE'] } })))).toEqual({
      kind: 'config',
      message:
        '[sandbox] cap_add (SYS_PTRACE) is refused with provider = "kubernetes": a capability can let the agent trace or outlive the process grading keeps in its pod (docs/kubernetes.md#grading); remove it, or run on Docker',
    });
    expect(resolveProvider(input({ run: cluster, sandbox: { cap_add: [] } }))).toMatchObject({ kind: 'kubernetes' });
  });
});

describe('podman', () => {
  it("is the service CONTAINER_HOST names, else Podman's rootful socket; DOCKER_HOST is Docker's, not a fleet", () => {
    expect(resolveProvider(input({ run: { provider: 'podman' }, env: { DOCKER_HOST: 'unix:///d.sock' } }))).toEqual({
      kind: 'podman',
      settings: { url: 'unix:///run/podman/podman.sock', source: "Podman's rootful socket; CONTAINER_HOST is not set" },
    });
    expect(resolveProvider(input({ run: { provider: 'podman' }, env: { CONTAINER_HOST: 'unix:///p.sock' } }))).toEqual({
      kind: 'podman',
      settings: { url: 'unix:///p.sock', source: 'from the environment variable CONTAINER_HOST=unix:///p.sock' },
    });
  });

  it('takes a DOCKER_HOST benchrig could not use for Docker as none of its business', () => {
    expect(resolveProvider(input({ run: { provider: 'podman' }, env: { DOCKER_HOST: 'ssh://me@box' } }))).toMatchObject(
      { kind: 'podman' },
    );
  });

  it('refuses a CONTAINER_HOST that is not a unix socket, and hosts named for the run', () => {
    expect(
      refusal(() => resolveProvider(input({ run: { provider: 'podman' }, env: { CONTAINER_HOST: 'tcp://x:1' } }))),
    ).toEqual({
      kind: 'config',
      message:
        'environment CONTAINER_HOST: "tcp://x:1" is not a unix:///path socket; benchrig reaches Podman\'s service on this machine only (docs/podman.md)',
    });
    expect(
      refusal(() =>
        resolveProvider(
          input({ run: { provider: 'podman' }, sandbox: { hosts: [{ url: 'tcp://a:2375', capacity: 1 }] } }),
        ),
      ).message,
    ).toMatch(/^\[run\] provider = "podman" and a fleet of Docker hosts/);
  });
});

describe("the providers' flags", () => {
  it('each brings its `run` flags: the fleet --docker-host (repeatable), the cluster --push (a [run] key)', () => {
    expect(runFlags().map((f) => f.flags)).toEqual(['--docker-host <url=capacity>', '--push']);
    expect(runFlagValues({ dockerHost: ['tcp://b:2375'], push: true, model: 'm' })).toEqual({
      layer: { run: { push: true } },
      flags: { dockerHost: ['tcp://b:2375'] },
    });
    expect(runFlagValues({})).toEqual({ layer: {}, flags: {} });
  });

  it('each brings its `sandbox cleanup` options; cleanup takes the providers that have one', () => {
    expect(cleanupFlags().map((f) => f.flags)).toEqual([
      '--docker-host <url>',
      '--namespace <name>',
      '--kube-context <name>',
    ]);
    expect(cleanupProviders()).toEqual(['docker', 'kubernetes', 'podman']);
  });
});

describe('an installed agent', () => {
  it('runs on the local engine alone: each other provider says what to change', () => {
    expect(installedAgentRefusal('cli:x', null)).toBeNull();
    expect(installedAgentRefusal('cli:x', { kind: 'docker', settings: {} })).toBeNull();
    expect(installedAgentRefusal('cli:x', { kind: 'fleet', settings: { hosts: [] } })).toBe(
      'cli:x is an installed agent, which runs only on the local Docker daemon (its sandbox reaches the model gateway through a unix socket on this machine); remove [[sandbox.hosts]] / --docker-host',
    );
    expect(installedAgentRefusal('cli:x', { kind: 'kubernetes' })).toMatch(
      /; not on Kubernetes: set \[run\] provider = "docker"/,
    );
    expect(installedAgentRefusal('cli:x', { kind: 'podman' })).toMatch(
      /; not on Podman: set \[run\] provider = "docker"/,
    );
  });
});
