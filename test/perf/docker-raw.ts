// The floor the sandbox row is measured against: Docker's own container lifecycle through dockerode
// — create → start → exec `echo` (output read, exit code inspected) → remove — with the same image
// and the same create options benchrig uses, `concurrency` at a time. No harness code runs here.
import Docker from 'dockerode';
import { createOptions } from '../../src/sandbox/docker/sandbox.ts';
import { ensureToolbox } from '../../src/sandbox/docker/toolbox.ts';
import type { SandboxSpec } from '../../src/sandbox/types.ts';

export const PERF_IMAGE = 'benchrig/busybox:1';

/** The sandbox spec of the generated sandbox benchmark (fixtures.ts), as the run resolves it. */
export function perfSpec(): SandboxSpec {
  return {
    image: PERF_IMAGE,
    workdir: '/workspace',
    network: 'none',
    memory: '64m',
    cpus: 1,
    pids: 32,
    setup: [],
    capAdd: [],
    shared: null,
    execTimeoutMs: 120_000,
    maxOutputBytes: 1_048_576,
  } as unknown as SandboxSpec;
}

async function oneCycle(docker: Docker, spec: SandboxSpec, runId: string, i: number, toolbox: string): Promise<void> {
  const container = await docker.createContainer(
    createOptions(spec, { runId, sessionId: `${runId}.raw${i}` }, toolbox),
  );
  try {
    await container.start();
    const exec = await container.exec({
      Cmd: ['echo', `ping ${i}`],
      AttachStdout: true,
      AttachStderr: true,
      WorkingDir: spec.workdir,
    });
    const stream = await exec.start({ hijack: true, stdin: false });
    await new Promise<void>((resolve) => {
      stream.on('data', () => {});
      stream.once('end', resolve);
      stream.once('close', resolve);
      stream.once('error', () => resolve());
    });
    const info = await exec.inspect();
    if (info.ExitCode !== 0) throw new Error(`raw echo exited ${info.ExitCode}`);
  } finally {
    await container.remove({ force: true, v: true });
  }
}

/** Wall time of `n` cycles, `concurrency` at a time. Containers carry benchrig labels with `runId`. */
export async function rawDockerLoop(n: number, concurrency: number, runId: string): Promise<number> {
  const docker = new Docker();
  const spec = perfSpec();
  const toolbox = await ensureToolbox(spec.image, docker);
  let next = 0;
  const t0 = performance.now();
  const lane = async () => {
    for (let i = next++; i < n; i = next++) await oneCycle(docker, spec, runId, i, toolbox);
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return performance.now() - t0;
}

/** Removes every container labelled with `runId` (a failed measurement must leave nothing behind). */
export async function removeByRun(runId: string): Promise<number> {
  const docker = new Docker();
  const list = await docker.listContainers({ all: true, filters: { label: [`benchrig.run=${runId}`] } });
  await Promise.all(
    list.map((c) =>
      docker
        .getContainer(c.Id)
        .remove({ force: true, v: true })
        .catch(() => {}),
    ),
  );
  return list.length;
}
