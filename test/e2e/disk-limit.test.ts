// `[sandbox] disk` through the real CLI: an agent that writes past the bound (a burst just before it
// answers, a stream that never stops, a sparse file) ends as AGENT_ERROR with limit disk, quickly,
// and its sandbox is gone; an agent under the same bound passes. Also through a TCP endpoint, as a
// fleet host is reached, where Docker's SizeRw is the measure.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { benchrigContainers, requireDocker } from '../support/docker.ts';
import { startDockerProxy, type DockerProxy } from '../support/docker-proxy.ts';
import { defined } from '../support/defined.ts';
import type { TrialResult } from '../../src/types.ts';

const hasDocker = await requireDocker();
const bench = join(FIXTURES, 'benchmarks/disk-bound');
const agent = join(FIXTURES, 'agents/fill-disk.ts');
const BOUND = 20 * 1024 ** 2;
const runIdOf = (dir: string) => readJson(join(dir, 'run.json')).run_id as string;
const bySample = (dir: string) => Object.fromEntries(results(dir).map((r) => [r.sample_id, r]));

function expectStoppedForDisk(r: TrialResult) {
  expect(r.status, JSON.stringify(r.error)).toBe('AGENT_ERROR');
  expect(defined(r.error).kind).toBe('agent');
  expect(defined(r.error).message).toMatch(/past its disk limit of 20\.0 MiB \(\[sandbox\] disk = "20m"\)/);
  expect(defined(r.error).stack).toBeUndefined();
  expect(r.metadata.limit).toMatchObject({ kind: 'disk', limit: BOUND });
  expect(defined(r.metadata.limit).value).toBeGreaterThan(BOUND);
  expect(r.metadata.execution_time_s).toBeLessThan(20); // the trial timeout is 60 s
}

describe.skipIf(!hasDocker)('[sandbox] disk', () => {
  let proxy: DockerProxy | undefined;
  afterAll(async () => proxy?.close());

  it('stops every agent that writes past the bound as AGENT_ERROR (limit disk); one under it passes', async () => {
    const out = tempDir();
    const t0 = Date.now();
    const r = await runCli(['run', bench, '--agent', agent, '--workers', '2', '--output', out]);
    expect(Date.now() - t0).toBeLessThan(90_000);
    const dir = onlyRunDir(out, 'fill-disk', 'disk-bound');
    const rs = bySample(dir);
    for (const id of ['burst', 'stream', 'sparse']) expectStoppedForDisk(rs[id]);
    expect(rs.small.status, JSON.stringify(rs.small.error)).toBe('PASSED');
    expect(rs.small.metadata.limit).toBeNull();
    expect(r.stdout).toMatch(/stream\s+AGENT_ERROR\s+agent: the sandbox wrote .* past its disk limit/); // what the user reads
    expect(await benchrigContainers(runIdOf(dir))).toEqual([]);
  }, 120_000);

  it('holds on a Docker host reached over TCP (Docker SizeRw), in threads mode', async () => {
    proxy = await startDockerProxy();
    const out = tempDir();
    const r = await runCli(
      ['run', bench, '--agent', agent, '--mode', 'threads', '--sample', 'stream,small', '--output', out],
      { env: { DOCKER_HOST: proxy.url } },
    );
    const dir = onlyRunDir(out, 'fill-disk', 'disk-bound');
    const rs = bySample(dir);
    expect(Object.keys(rs).sort(), r.stderr).toEqual(['small', 'stream']);
    expectStoppedForDisk(rs.stream);
    expect(defined(rs.stream.metadata.sandbox).host).toBe(proxy.url);
    expect(rs.small.status, JSON.stringify(rs.small.error)).toBe('PASSED');
    expect(await benchrigContainers(runIdOf(dir))).toEqual([]);
  }, 120_000);
});
