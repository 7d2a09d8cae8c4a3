// The real CLI with `--provider kubernetes` on the local cluster of scripts/k8s-up.sh
// (docs/kubernetes.md#tests): the verdicts Docker gives, the refusals, the sweep after a SIGKILL.
import { execa } from 'execa';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../src/sandbox/kubernetes/client.ts';
import { BIN, FIXTURES, REPO, readJson, runCli, tempDir } from '../support/cli.ts';
import { K8S_NAMESPACE, K8S_REGISTRY, requireCluster } from '../support/kubernetes.ts';
import { clusterConfig, clusterEnv, runDirIn, runOn, runPods } from '../support/kubernetes-cli.ts';

const env = clusterEnv;
const agent = (name: string) => join(FIXTURES, 'agents', `${name}.ts`);
const run = (provider: 'docker' | 'kubernetes', benchmark: string, agentName: string, mode: string) =>
  runOn(provider, benchmark, agentName, mode, ['--quiet']);

describe('benchrig run --provider kubernetes on the local cluster', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await requireCluster();
  }, 900_000);

  it.each(['threads', 'processes'])(
    'shell-tasks (%s): the oracle passes every task, nop none, and no pod is left',
    async (mode) => {
      const oracle = await run('kubernetes', 'shell-tasks', 'oracle', mode);
      expect(Object.keys(oracle.statuses).length).toBeGreaterThanOrEqual(20);
      expect(Object.entries(oracle.statuses).filter(([, s]) => s !== 'PASSED')).toEqual([]);
      expect(oracle.code).toBe(0);
      const nop = await run('kubernetes', 'shell-tasks', 'nop', mode);
      expect(Object.entries(nop.statuses).filter(([, s]) => s !== 'FAILED')).toEqual([]);
      expect(nop.code).toBe(1); // the gate
      expect(await runPods(cluster, oracle.runId)).toEqual([]);
      expect(await runPods(cluster, nop.runId)).toEqual([]);
    },
    900_000,
  );

  it.each(['threads', 'processes'])(
    'a Harbor task folder and a compose task with sidecars give the verdicts Docker gives (%s)',
    async (mode) => {
      const harbor = join(FIXTURES, 'harbor');
      const compose = join(FIXTURES, 'harbor-compose-k8s/sidecar');
      for (const [bench, agentName] of [
        [harbor, 'oracle'],
        [compose, 'oracle'],
        [compose, 'nop'],
      ] as const) {
        const [onDocker, onCluster] = await Promise.all([
          run('docker', bench, agentName, mode),
          run('kubernetes', bench, agentName, mode),
        ]);
        expect(onCluster.statuses, `${bench} ${agentName}`).toEqual(onDocker.statuses);
        expect(onCluster.code).toBe(onDocker.code);
      }
    },
    900_000,
  );

  it('a SWE-bench benchmark gives the verdicts Docker gives: the fix in a fresh pod, forged and hidden diffs seen through', async () => {
    const swe = join(FIXTURES, 'benchmarks/swebench-calc');
    for (const agentName of ['oracle', 'nop', agent('swebench-forged-git'), agent('swebench-hides-fix')]) {
      const [onDocker, onCluster] = await Promise.all([
        run('docker', swe, agentName, 'threads'),
        run('kubernetes', swe, agentName, 'threads'),
      ]);
      expect(Object.keys(onCluster.statuses)).toHaveLength(2);
      expect(onCluster.statuses, agentName).toEqual(onDocker.statuses);
      expect(await runPods(cluster, onCluster.runId)).toEqual([]);
    }
    const oracle = await run('kubernetes', swe, 'oracle', 'processes');
    expect(Object.values(oracle.statuses)).toEqual(['PASSED', 'PASSED']);
  }, 900_000);

  it('agents that replace sh and tools, rewrite the tests in the background or go for PID 1 fail as on Docker: grading runs on the toolbox, after an end they cannot reach', async () => {
    // At once: each trial mostly waits on its pod's start.
    const names = ['replace-sh', 'replace-tools', 'tamper-background', 'tamper-pid1'];
    const runs = await Promise.all(
      names.map((name) => run('kubernetes', join(FIXTURES, 'benchmarks/tamper-debian'), agent(name), 'single')),
    );
    for (const [i, tampered] of runs.entries()) {
      expect(tampered.statuses, names[i]).toEqual({ answer: 'FAILED' });
      expect(await runPods(cluster, tampered.runId)).toEqual([]);
    }
    // Root in the pod cannot trace PID 1, which grading keeps, nor open its memory (tamper-pid1.ts).
    expect(runs[3].results.answer.response).toContain('0: ptrace attach: refused\nmem: refused\npid 1: alive\n');
  }, 600_000);

  it('refuses a bad [run] key, a missing one, [sandbox] cap_add and an installed agent with exit 2, naming it', async () => {
    const noRegistry = await runCli(
      ['run', 'shell-tasks', '--agent', 'oracle', '--config', clusterConfig({ namespace: K8S_NAMESPACE })],
      { env },
    );
    expect(noRegistry.code).toBe(2);
    expect(noRegistry.stderr).toContain('[run] registry is required with provider = "kubernetes"');
    const badNamespace = await runCli(
      [
        'run',
        'shell-tasks',
        '--agent',
        'oracle',
        '--config',
        clusterConfig({ namespace: 'Not_A_Name', registry: K8S_REGISTRY }),
      ],
      { env },
    );
    expect(badNamespace.code).toBe(2);
    expect(badNamespace.stderr).toMatch(/namespace/);
    const missing = await runCli(
      [
        'run',
        'shell-tasks',
        '--agent',
        'oracle',
        '--config',
        clusterConfig({ namespace: 'no-such-ns', registry: K8S_REGISTRY }),
      ],
      { env },
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no namespace "no-such-ns"');
    const caps = clusterConfig();
    appendFileSync(caps, '[sandbox]\ncap_add = ["SYS_PTRACE"]\n');
    const capAdd = await runCli(['run', 'shell-tasks', '--agent', 'oracle', '--config', caps], { env });
    expect(capAdd.code).toBe(2);
    expect(capAdd.stderr).toContain('[sandbox] cap_add (SYS_PTRACE) is refused with provider = "kubernetes"');
    const installed = await runCli(['run', 'shell-tasks', '--agent', 'cli:opencode', '--config', clusterConfig()], {
      env,
    });
    expect(installed.code).toBe(2);
    expect(installed.stderr).toContain('runs only on the local Docker daemon');
    expect(installed.stderr).toContain('not on Kubernetes');
  }, 120_000);

  it("a harness killed with SIGKILL leaves pods that the next run's sweep removes", async () => {
    const out = tempDir();
    const child = execa(
      'node',
      [
        BIN,
        'run',
        'shell-tasks',
        '--agent',
        agent('sleepy'),
        '--agent-opt',
        'seconds=120',
        '--mode',
        'threads',
        '--workers',
        '2',
        '--output',
        out,
        '--config',
        clusterConfig(),
        '--push',
        '--quiet',
      ],
      { cwd: REPO, env: { NO_COLOR: '1', ...env }, reject: false, stdin: 'ignore' },
    );
    let runId = '';
    let left: Awaited<ReturnType<typeof runPods>> = [];
    for (let i = 0; i < 240 && left.length === 0; i++) {
      await sleep(500);
      try {
        runId = readJson<{ run_id: string }>(join(runDirIn(out), 'run.json')).run_id;
        left = await runPods(cluster, runId);
      } catch {
        // the run folder is not there yet
      }
    }
    expect(left.length).toBeGreaterThan(0);
    child.kill('SIGKILL');
    await child;
    expect((await runPods(cluster, runId)).length).toBeGreaterThan(0); // nothing removed them
    const next = await run('kubernetes', join(FIXTURES, 'harbor'), 'nop', 'single');
    expect(next.code).not.toBe(2);
    expect(await runPods(cluster, runId)).toEqual([]);
  }, 900_000);
});
