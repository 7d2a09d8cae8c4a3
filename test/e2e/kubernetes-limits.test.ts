// `[sandbox] disk` and `memory` on Kubernetes through the real CLI (docs/kubernetes.md#disk), with
// fixture agents that try to get past them: the verdicts Docker gives, and what a pod allows an
// agent that Docker does not (hiding a folder from the measurement, killing the harness's commands).
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../src/sandbox/kubernetes/client.ts';
import type { TrialResult } from '../../src/types.ts';
import { FIXTURES } from '../support/cli.ts';
import { defined } from '../support/defined.ts';
import { requireCluster } from '../support/kubernetes.ts';
import { runOn, runPods } from '../support/kubernetes-cli.ts';

const bench = join(FIXTURES, 'benchmarks/disk-bound');
const agent = (name: string) => join(FIXTURES, 'agents', `${name}.ts`);
const BOUND = 20 * 1024 ** 2;

function expectStoppedForDisk(r: TrialResult, message: RegExp) {
  expect(r.status, JSON.stringify(r.error)).toBe('AGENT_ERROR');
  expect(defined(r.error).kind).toBe('agent');
  expect(defined(r.error).message).toMatch(message);
  expect(r.metadata.limit).toMatchObject({ kind: 'disk', limit: BOUND });
}

describe('limits of a trial on Kubernetes', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await requireCluster();
  }, 900_000);

  it('an agent that writes past [sandbox] disk is stopped as on Docker, before its work is graded', async () => {
    // burst: 50 MiB just before it answers (the kubelet's eviction would come after grading); stream:
    // 5 MiB every 0.3 s, never stopping; sparse: a 1 GiB file holding no data; small: under the bound.
    const [onDocker, onCluster] = await Promise.all([
      runOn('docker', bench, agent('fill-disk'), 'threads'),
      runOn('kubernetes', bench, agent('fill-disk'), 'processes'),
    ]);
    expect(onCluster.statuses).toEqual(onDocker.statuses);
    expect(onCluster.statuses).toEqual({
      burst: 'AGENT_ERROR',
      stream: 'AGENT_ERROR',
      sparse: 'AGENT_ERROR',
      small: 'PASSED',
    });
    for (const id of ['burst', 'stream', 'sparse'])
      expectStoppedForDisk(onCluster.results[id], /past its disk limit of 20\.0 MiB \(\[sandbox\] disk = "20m"\)/);
    expect(defined(onCluster.results.burst.metadata.limit).value).toBeGreaterThanOrEqual(50 * 1024 ** 2);
    expect(onCluster.results.stream.metadata.execution_time_s).toBeLessThan(30); // trial timeout 60 s
    expect(await runPods(cluster, onCluster.runId)).toEqual([]);
  }, 900_000);

  it('an agent that hides what it wrote in a folder it makes unreadable is stopped', async () => {
    const r = await runOn('kubernetes', bench, agent('hide-disk'), 'threads', ['--sample', 'burst']);
    expectStoppedForDisk(r.results.burst, /could not be measured .* a folder the harness may not read/);
    expect(await runPods(cluster, r.runId)).toEqual([]);
  }, 600_000);

  it('an agent that kills every process of its pod is not graded, and is blamed, not the cluster', async () => {
    // With a disk bound the measurement dies; without one (tamper-debian), the restart before grading.
    const bounded = await runOn('kubernetes', bench, agent('kill-harness'), 'threads', ['--sample', 'burst']);
    expect(bounded.results.burst.status, JSON.stringify(bounded.results.burst.error)).toBe('AGENT_ERROR');
    expect(bounded.results.burst.metadata.limit).toMatchObject({ kind: 'disk' });
    const unbounded = await runOn(
      'kubernetes',
      join(FIXTURES, 'benchmarks/tamper-debian'),
      agent('kill-harness'),
      'threads',
    );
    const answer = unbounded.results.answer;
    expect(answer.status, JSON.stringify(answer.error)).toBe('AGENT_ERROR');
    // Whichever of its own kills it meets first: the restart before grading, or the disk measurement
    // running beside it at that moment (killed too: exit 137). Either is the agent's.
    expect(defined(answer.error).message).toMatch(
      /could not restart the sandbox for grading|disk use could not be measured .*the measurement printed no total \(exit 137\)/,
    );
    expect(unbounded.stderr).not.toMatch(/retrying with a fresh sandbox/); // the agent's doing, not retried
    expect(await runPods(cluster, bounded.runId)).toEqual([]);
    expect(await runPods(cluster, unbounded.runId)).toEqual([]);
  }, 600_000);

  it('a command that takes more memory than [sandbox] memory is killed, as on Docker, and the trial graded', async () => {
    const [onDocker, onCluster] = await Promise.all([
      runOn('docker', bench, agent('memory-hog'), 'threads', ['--sample', 'burst']),
      runOn('kubernetes', bench, agent('memory-hog'), 'threads', ['--sample', 'burst']),
    ]);
    expect(onCluster.statuses).toEqual({ burst: 'FAILED' });
    expect(onDocker.statuses).toEqual({ burst: 'FAILED' });
    expect(onCluster.results.burst.response).toMatch(/^137: /); // SIGKILL from the OOM killer
    expect(await runPods(cluster, onCluster.runId)).toEqual([]);
  }, 600_000);
});
