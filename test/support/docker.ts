// Docker for tests: real daemon only. Locally a missing daemon skips Docker tests; in CI it fails them.
import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import { checkDocker, docker } from '../../src/sandbox/docker/client.ts';
import { runFilter } from '../../src/sandbox/docker/labels.ts';
import type { SandboxSpec } from '../../src/sandbox/types.ts';

export const TEST_IMAGE = 'benchrig/busybox:1';

export async function dockerAvailable(): Promise<boolean> {
  try {
    await checkDocker(3_000);
    return true;
  } catch {
    return false;
  }
}

/** For `describe.skipIf(!(await requireDocker()))`: false when Docker is missing, but throws in CI. */
export async function requireDocker(): Promise<boolean> {
  if (await dockerAvailable()) return true;
  if (process.env.CI === 'true') throw new Error('Docker is required in CI, but the daemon is not reachable');
  return false;
}

/** Containers carrying the benchrig.run label (of one run, if given), stopped ones included. */
export async function benchrigContainers(runId?: string): Promise<Docker.ContainerInfo[]> {
  return docker().listContainers({ all: true, filters: JSON.stringify(runFilter(runId)) });
}

/** A sandbox spec for tests: the busybox image, the defaults of docs/configuration.md, small limits. */
export function testSpec(overrides: Partial<SandboxSpec> = {}): SandboxSpec {
  return {
    image: TEST_IMAGE,
    workdir: '/workspace',
    network: 'none',
    memory: '256m',
    cpus: 1,
    pids: 128,
    setup: [],
    execTimeoutMs: 20_000,
    maxOutputBytes: 64 * 1024,
    ...overrides,
  };
}

/** A run id unique to one test file, so its assertions never see another suite's containers. */
export const testRunId = (name: string) => `test-${name}-${randomBytes(4).toString('hex')}`;
