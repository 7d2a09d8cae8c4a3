// The multi-service row (`multi_service_overhead_ratio`, docs/performance.md): a two-service trial —
// main and a sidecar with a healthcheck main waits for — through benchrig (the sandbox-echo agent,
// threads, `concurrency` at a time) against the same Docker work done by hand with dockerode,
// `concurrency` at a time: the trial's network on a /28 of its own, the sidecar created and started,
// its health waited for, main created and started, one `echo` exec'd in main, both removed, the
// network removed. Same image, same create options (the spec the benchmark loads into), same
// healthcheck. No harness code runs on the raw side.
import { randomInt } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Docker from 'dockerode';
import { loadBenchmark } from '../../src/benchmark/load.ts';
import { createOptions } from '../../src/sandbox/docker/sandbox.ts';
import { buildLabels } from '../../src/sandbox/docker/labels.ts';
import { serviceOptions } from '../../src/sandbox/docker/service-container.ts';
import { parseSubnetPool, subnetAt } from '../../src/sandbox/docker/subnet-pool.ts';
import { ensureToolbox } from '../../src/sandbox/docker/toolbox.ts';
import type { SandboxSpec } from '../../src/sandbox/types.ts';
import type { ServiceSpec } from '../../src/environment/spec.ts';
import { perfSpec, PERF_IMAGE, removeByRun } from './docker-raw.ts';

export interface MultiServiceSizes {
  trials: number;
  concurrency: number;
}

/** The raw side's subnets: a range of its own, so that it never competes with benchrig's pool. */
const RAW_POOL = parseSubnetPool('10.216.0.0/16', 'the perf suite');

/** A benchmark of `n` samples: main (busybox) waits for `side` to turn healthy; one `contains` check. */
export function multiServiceBenchmark(root: string, n: number): string {
  const dir = join(root, 'benchmarks', `perf-multi-${n}`);
  mkdirSync(dir, { recursive: true });
  const rows = Array.from({ length: n }, (_, i) =>
    JSON.stringify({ id: `m${String(i).padStart(5, '0')}`, input: `ping ${i}`, expected: `ping ${i}` }),
  );
  writeFileSync(join(dir, 'data.jsonl'), rows.join('\n') + '\n');
  writeFileSync(
    join(dir, 'benchmark.toml'),
    `name = "perf-multi-${n}"
[dataset]
source = "data.jsonl"
[sandbox]
image = "${PERF_IMAGE}"
memory = "64m"
pids = 32
depends_on = { side = "service_healthy" }
[sandbox.services.side]
image = "${PERF_IMAGE}"
command = ["sh", "-c", "touch /tmp/ready && exec sleep 3600"]
memory = "32m"
healthcheck = { test = ["CMD-SHELL", "test -f /tmp/ready"], interval_s = 0.5, timeout_s = 5, retries = 20 }
[limits]
trial_timeout_s = 120
[[checks]]
type = "contains"
name = "answered"
`,
  );
  return dir;
}

/** The sidecar as the benchmark loads it (its create options then match benchrig's exactly). */
export async function sidecarSpec(benchmarkDir: string): Promise<ServiceSpec> {
  const env = (await loadBenchmark(benchmarkDir, { env: {} })).environment;
  const side = env?.services.side;
  if (!side) throw new Error(`${benchmarkDir}: no service "side"`);
  return side;
}

async function execEcho(container: Docker.Container, i: number, workdir: string): Promise<void> {
  const exec = await container.exec({
    Cmd: ['echo', `ping ${i}`],
    AttachStdout: true,
    AttachStderr: true,
    WorkingDir: workdir,
  });
  const stream = await exec.start({ hijack: true, stdin: false });
  await new Promise<void>((done) => {
    stream.on('data', () => {});
    stream.once('end', done);
    stream.once('close', done);
    stream.once('error', () => done());
  });
  const info = await exec.inspect();
  if (info.ExitCode !== 0) throw new Error(`raw echo exited ${info.ExitCode}`);
}

/** Polls the sidecar every 100 ms until Docker's healthcheck says healthy. */
async function untilHealthy(container: Docker.Container): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const { State } = await container.inspect();
    if (State.Health?.Status === 'healthy') return;
    if (State.Health?.Status === 'unhealthy' || !State.Running) throw new Error('raw sidecar did not turn healthy');
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('raw sidecar: no health within a minute');
}

/** A network on a free /28 of the raw range (a refused overlap moves on, as benchrig does). */
async function rawNetwork(docker: Docker, name: string, labels: Record<string, string>): Promise<Docker.Network> {
  for (let attempt = 0; attempt < 24; attempt++) {
    const c = subnetAt(RAW_POOL, 28, randomInt(0, 4096));
    const subnet = `${[24, 16, 8, 0].map((s) => (c.base >>> s) & 255).join('.')}/28`;
    try {
      return await docker.createNetwork({
        Name: name,
        Driver: 'bridge',
        CheckDuplicate: true,
        Internal: true,
        Attachable: false,
        Labels: labels,
        IPAM: { Driver: 'default', Config: [{ Subnet: subnet, Gateway: c.gateway }] },
        Options: { 'com.docker.network.bridge.enable_icc': 'true', 'com.docker.network.bridge.inhibit_ipv4': 'true' },
      });
    } catch (err) {
      if (!/overlaps/i.test(String((err as Error).message))) throw err;
    }
  }
  throw new Error('raw network: no free subnet');
}

interface RawCtx {
  docker: Docker;
  spec: SandboxSpec;
  side: ServiceSpec;
  toolbox: string;
  runId: string;
}

async function oneCycle(x: RawCtx, i: number): Promise<void> {
  const labels = { runId: x.runId, sessionId: `${x.runId}.multi${i}` };
  const net = await rawNetwork(x.docker, `benchrig-${x.runId}-multi${i}`, buildLabels(labels));
  const attach = (name: string) => ({ network: net.id, aliases: [name], volumes: [] });
  const made: Docker.Container[] = [];
  try {
    const sideOpts = serviceOptions(
      { client: x.docker, hostKey: 'raw', base: x.spec, name: 'side', service: x.side, labels, attach: attach('side') },
      PERF_IMAGE,
      x.toolbox,
    );
    const side = await x.docker.createContainer(sideOpts);
    made.push(side);
    await side.start();
    await untilHealthy(side);
    const main = await x.docker.createContainer(createOptions(x.spec, labels, x.toolbox, attach('main')));
    made.push(main);
    await main.start();
    await execEcho(main, i, x.spec.workdir);
  } finally {
    await Promise.all(made.map((c) => c.remove({ force: true, v: true })));
    await net.remove();
  }
}

/** Wall time of `n` two-service cycles, `concurrency` at a time, labelled with `runId`. */
export async function rawMultiServiceLoop(n: number, concurrency: number, runId: string, side: ServiceSpec) {
  const docker = new Docker();
  const spec = perfSpec();
  const x: RawCtx = { docker, spec, side, toolbox: await ensureToolbox(spec.image, docker), runId };
  let next = 0;
  const t0 = performance.now();
  const lane = async () => {
    for (let i = next++; i < n; i = next++) await oneCycle(x, i);
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return performance.now() - t0;
}

/** Networks labelled with `runId` (a failed measurement must leave nothing behind), after its containers. */
export async function removeRawMulti(runId: string): Promise<void> {
  await removeByRun(runId);
  const docker = new Docker();
  const nets = await docker.listNetworks({ filters: { label: [`benchrig.run=${runId}`] } });
  await Promise.all(
    nets.map((n) =>
      docker
        .getNetwork(n.Id)
        .remove()
        .catch(() => {}),
    ),
  );
}
