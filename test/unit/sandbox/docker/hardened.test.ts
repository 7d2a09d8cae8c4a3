// The one hardened builder (src/sandbox/docker/hardened.ts): strict by default, each relaxation only
// through its named field, and nothing a caller's own options say can undo it.
import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { hardened, type ContainerOptions } from '../../../../src/sandbox/docker/hardened.ts';

const bounds = { labels: { benchrig: '1', 'benchrig.run': 'r' }, memoryBytes: 1 << 28, cpus: 0.5, pids: 10 };

describe('hardened', () => {
  it('is strict when nothing is relaxed', () => {
    const o = hardened({ Image: 'x' }, bounds);
    expect(o.HostConfig).toEqual({
      NetworkMode: 'none',
      CapDrop: ['ALL'],
      CapAdd: [],
      SecurityOpt: ['no-new-privileges'],
      Privileged: false,
      Memory: 1 << 28,
      MemorySwap: 1 << 28,
      NanoCpus: 5e8,
      PidsLimit: 10,
      Init: true,
      LogConfig: { Type: 'none', Config: {} },
      ReadonlyRootfs: true,
    });
    expect(o.Labels).toEqual(bounds.labels);
  });

  it('relaxes each property only through its own field', () => {
    const hc = hardened(
      { Image: 'x' },
      { ...bounds, network: 'net-1', capAdd: ['NET_RAW'], noInit: true, boundedLog: true, writableRoot: true },
    ).HostConfig;
    expect(hc).toMatchObject({
      NetworkMode: 'net-1',
      CapAdd: ['NET_RAW'],
      Init: false,
      LogConfig: { Type: 'json-file', Config: { 'max-size': '1m', 'max-file': '1' } },
      ReadonlyRootfs: false,
      // never relaxed
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      Privileged: false,
    });
  });

  it("keeps the caller's other options, and its hardening over anything the caller's options say", () => {
    // What a type-unsafe caller (a spec made in code) could pass: the builder's values stand.
    const sneaky = {
      Image: 'x',
      Labels: { benchrig: 'forged', 'org.example': 'kept' },
      HostConfig: {
        CapDrop: [],
        Privileged: true,
        SecurityOpt: ['seccomp=unconfined'],
        NetworkMode: 'host',
        Memory: 0,
        ExtraHosts: ['a:10.0.0.1'],
      },
    } as unknown as ContainerOptions;
    const o: Docker.ContainerCreateOptions = hardened(sneaky, bounds);
    expect(o.HostConfig).toMatchObject({
      CapDrop: ['ALL'],
      Privileged: false,
      SecurityOpt: ['no-new-privileges'],
      NetworkMode: 'none',
      Memory: 1 << 28,
      ExtraHosts: ['a:10.0.0.1'],
    });
    expect(o.Labels).toEqual({ benchrig: '1', 'benchrig.run': 'r', 'org.example': 'kept' });
  });
});
