import os from 'node:os';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type Docker from 'dockerode';
import type { ServiceSpec } from '../../../../src/environment/spec.ts';
import { createOptions, parseMemory } from '../../../../src/sandbox/docker/sandbox.ts';
import { serviceOptions } from '../../../../src/sandbox/docker/service-container.ts';
import { ownerIsGone } from '../../../../src/sandbox/docker/sweep.ts';
import type { SandboxSpec } from '../../../../src/sandbox/types.ts';

const spec: SandboxSpec = {
  image: 'benchrig/busybox:1',
  workdir: '/workspace',
  network: 'none',
  memory: '512m',
  cpus: 1.5,
  pids: 64,
  setup: [],
  execTimeoutMs: 1000,
  maxOutputBytes: 1000,
};

describe('parseMemory', () => {
  it('reads docker-style sizes', () => {
    expect(parseMemory('512m')).toBe(512 * 1024 ** 2);
    expect(parseMemory('1g')).toBe(1024 ** 3);
    expect(parseMemory('1.5G')).toBe(1.5 * 1024 ** 3);
    expect(parseMemory('256MiB')).toBe(256 * 1024 ** 2);
    expect(parseMemory('1048576')).toBe(1048576);
  });
  it('rejects nonsense with the value in the message', () => {
    expect(() => parseMemory('lots')).toThrow(/"lots"/);
  });
});

describe('createOptions', () => {
  it("locks the container down and mounts nothing but the harness's toolbox and the shared volume, read-only", () => {
    const o = createOptions(
      { ...spec, shared: { volume: 'v1', mount: '/shared' } },
      { runId: 'r', sessionId: 's/1' },
      'benchrig-toolbox-x',
    );
    expect(o.HostConfig).toMatchObject({
      NetworkMode: 'none',
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      Memory: 512 * 1024 ** 2,
      MemorySwap: 512 * 1024 ** 2,
      NanoCpus: 1.5e9,
      PidsLimit: 64,
      Init: false, // its PID 1 is the toolbox's keep-alive
      Mounts: [
        {
          Type: 'volume',
          Source: 'benchrig-toolbox-x',
          Target: '/.benchrig',
          ReadOnly: true,
          VolumeOptions: { NoCopy: true },
        },
        { Type: 'volume', Source: 'v1', Target: '/shared', ReadOnly: true },
      ],
    });
    expect(o.HostConfig?.Binds).toBeUndefined();
    expect(JSON.stringify(o)).not.toContain('docker.sock');
    expect(o.Labels).toEqual({
      benchrig: '1',
      'benchrig.run': 'r',
      'benchrig.session': 's/1',
      'benchrig.pid': String(process.pid),
      'benchrig.host': os.hostname(),
    });
    expect(o.WorkingDir).toBe('/workspace');
    // The keep-alive runs from the read-only toolbox's untraceable copy, waiting on its open stdin.
    expect(o.Entrypoint?.[0]).toBe('/.benchrig/init/busybox');
    expect(o.OpenStdin).toBe(true);
  });
});

describe('ownerIsGone', () => {
  const dead = spawnSync(process.execPath, ['-e', '0']).pid;
  const labels = (pid: number, host = os.hostname()) => ({ 'benchrig.pid': String(pid), 'benchrig.host': host });

  it('is true only for a dead process on this host', () => {
    expect(ownerIsGone(labels(dead))).toBe(true);
    expect(ownerIsGone(labels(process.pid))).toBe(false);
    expect(ownerIsGone(labels(dead, 'some-other-host'))).toBe(false);
    expect(ownerIsGone({})).toBe(false);
  });
});

describe("a service's create options", () => {
  const service: ServiceSpec = {
    image: 'benchrig/busybox:1',
    env: {},
    ulimits: {},
    tmpfs: {},
    stdinOpen: false,
    tty: false,
    labels: { 'benchrig.keep': '1', 'benchrig.pid': '1', benchrig: 'x', 'org.example.kept': 'yes' },
    dependsOn: {},
    mounts: [],
    networks: {},
    expose: [],
    capAdd: [],
  };
  const options = () =>
    serviceOptions(
      {
        client: {} as Docker,
        hostKey: 'local',
        base: spec,
        name: 'side',
        service,
        labels: { runId: 'r', sessionId: 's' },
        volumes: [{ source: 'data', target: '/data', readOnly: false }],
      },
      'benchrig/busybox:1',
      'benchrig-toolbox-x',
    );

  it("never keep a label under benchrig's prefix (load refuses them; a spec made in code is not trusted either)", () => {
    const labels = options().Labels;
    expect(labels).not.toHaveProperty('benchrig.keep');
    expect(labels).toMatchObject({
      benchrig: '1',
      'benchrig.pid': String(process.pid),
      'benchrig.service': 'side',
      'org.example.kept': 'yes',
    });
  });

  it("mount the harness's toolbox read-only, as main does, beside the service's own volumes", () => {
    expect(options().HostConfig?.Mounts).toEqual([
      {
        Type: 'volume',
        Source: 'benchrig-toolbox-x',
        Target: '/.benchrig',
        ReadOnly: true,
        VolumeOptions: { NoCopy: true },
      },
      { Type: 'volume', Source: 'data', Target: '/data', ReadOnly: false },
    ]);
  });
});
