// The real CLI with `--provider podman` on Podman's service of scripts/setup-podman.sh (docs/podman.md):
// the verdicts Docker gives (the shell tasks, a compose task with sidecars, the adversarial fixtures),
// the host out of an internal network's reach, the refusals at load, and nothing left after a run or
// a SIGKILL. Podman missing fails these tests; they never skip.
import { execa } from 'execa';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrialResult } from '../../src/types.ts';
import { BIN, FIXTURES, REPO, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { defined } from '../support/defined.ts';
import { runDirIn } from '../support/kubernetes-cli.ts';
import { podmanLeftovers, requirePodman } from '../support/podman.ts';

const agent = (name: string) => join(FIXTURES, 'agents', `${name}.ts`);
const bench = (name: string) => join(FIXTURES, 'benchmarks', name);
const SIDECAR = join(FIXTURES, 'harbor-compose-k8s/sidecar');

/**
 * The sidecar task with main's `/solution` a named volume (the oracle's solution is copied into it)
 * and a folder of the task bound at /app/data (a volume filled from it), which its verifier requires.
 */
function withVolumes(): string {
  const dir = join(tempDir(), 'sidecar');
  cpSync(SIDECAR, dir, { recursive: true });
  const compose = join(dir, 'environment', 'docker-compose.yaml');
  const text = readFileSync(compose, 'utf8').replace(
    '  main:\n',
    '  main:\n    volumes:\n      - ./data:/app/data:ro\n      - solution:/solution\n',
  );
  writeFileSync(compose, `${text}volumes:\n  solution: {}\n`);
  mkdirSync(join(dir, 'environment', 'data'));
  writeFileSync(join(dir, 'environment', 'data', 'seed.txt'), 'seed\n');
  const test = join(dir, 'tests', 'test.sh');
  writeFileSync(
    test,
    readFileSync(test, 'utf8').replace('if [ "$want"', 'if [ "$(cat /app/data/seed.txt)" = seed ] && [ "$want"'),
  );
  return dir;
}

/** A run on Podman through the CLI: its exit code, output, results and statuses by task, and run id. */
async function onPodman(benchmark: string, agentName: string, mode: string, extra: string[] = [], env = {}) {
  const out = tempDir();
  const args = ['run', benchmark, '--agent', agentName, '--provider', 'podman', '--mode', mode, '--output', out];
  const r = await runCli([...args, '--workers', '2', '--quiet', ...extra], { env, timeoutMs: 300_000 });
  const dir = runDirIn(out);
  const all: TrialResult[] = results(dir);
  return {
    ...r,
    results: Object.fromEntries(all.map((x) => [x.task_id, x])),
    statuses: Object.fromEntries(all.map((x) => [x.task_id, x.status])),
    runId: readJson<{ run_id: string }>(join(dir, 'run.json')).run_id,
  };
}

describe('benchrig run --provider podman', () => {
  beforeAll(async () => {
    await requirePodman();
  }, 300_000);

  it('shell-tasks: the oracle passes (worker processes), nop fails (threads), a shared folder is in every sandbox, and nothing is left', async () => {
    const [oracle, nop, shared] = await Promise.all([
      onPodman('shell-tasks', 'oracle', 'processes', ['--limit', '6']),
      onPodman('shell-tasks', 'nop', 'threads', ['--limit', '6']),
      onPodman(bench('shared-volume'), 'oracle', 'threads'), // [sandbox.shared]: a volume filled once, read-only
    ]);
    expect(Object.keys(oracle.statuses)).toHaveLength(6);
    expect(Object.entries(oracle.statuses).filter(([, s]) => s !== 'PASSED')).toEqual([]);
    expect(oracle.code).toBe(0);
    expect(Object.keys(nop.statuses)).toHaveLength(6);
    expect(Object.entries(nop.statuses).filter(([, s]) => s !== 'FAILED')).toEqual([]);
    expect(nop.code).toBe(1); // the gate
    expect(shared.statuses).toEqual({ s1: 'PASSED', s2: 'PASSED' });
    for (const r of [oracle, nop, shared]) expect(await podmanLeftovers(r.runId)).toEqual([]);
  }, 300_000);

  describe('a compose task with sidecars (a built one, a healthchecked one main waits for)', () => {
    let host: Server;
    let port = 0;
    beforeAll(async () => {
      // Listens on every address of this machine: what an internal network must not reach.
      host = createServer((s) => s.end('host-secret\n'));
      await new Promise<void>((resolve) => host.listen(0, '0.0.0.0', resolve));
      port = (host.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((resolve) => host.close(() => resolve())));

    it('passes with the oracle, with a task folder and the solution in volumes too; an agent probing the host from its internal network reaches nothing', async () => {
      const [oracle, inVolumes, probe] = await Promise.all([
        onPodman(SIDECAR, 'oracle', 'threads'),
        onPodman(withVolumes(), 'oracle', 'threads'),
        onPodman(SIDECAR, agent('host-prober'), 'threads', [], { PROBE_PORT: String(port) }),
      ]);
      expect(oracle.statuses).toEqual({ sidecar: 'PASSED' }); // web by name, db healthy by name
      // A task folder bound into main (a volume filled from it), the solution copied into a volume.
      expect(inVolumes.statuses, inVolumes.stderr).toEqual({ sidecar: 'PASSED' });
      expect(probe.statuses).toEqual({ sidecar: 'FAILED' });
      const seen = JSON.parse(defined(probe.results.sidecar.response)) as Record<string, string>;
      expect(seen.own).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
      expect(Object.keys(seen)).toHaveLength(4); // its network's first address, Docker's and Podman's bridges
      for (const [address, answer] of Object.entries(seen)) if (address !== 'own') expect(answer, address).toBe('');
      for (const r of [oracle, inVolumes, probe]) expect(await podmanLeftovers(r.runId)).toEqual([]);
    }, 300_000);
  });

  it('the adversarial fixtures get the verdicts Docker gives them', async () => {
    const [tamper, killOwn, fill] = await Promise.all([
      onPodman(bench('tamper-shell'), agent('tamper-background'), 'single'),
      onPodman(bench('tamper-shell'), agent('kill-own-sandbox'), 'single'),
      onPodman(bench('disk-bound'), agent('fill-disk'), 'threads'),
    ]);
    // A process left behind to rewrite the tests: killed by the restart before grading.
    expect(tamper.statuses).toEqual({ answer: 'FAILED' });
    expect(tamper.results.answer.checks.find((c) => c.name === 'tests pass')).toMatchObject({
      passed: false,
      reason: 'exit 1: 0 passed, 1 failed',
    });
    // Its own sandbox stopped: the agent's doing, graded and counted, never retried as infrastructure.
    expect(killOwn.statuses).toEqual({ answer: 'FAILED' });
    expect(killOwn.stderr).not.toMatch(/retrying/);
    // Past [sandbox] disk: stopped, whether in one burst, a stream or a sparse file; under it: graded.
    expect(fill.statuses).toEqual({
      burst: 'AGENT_ERROR',
      stream: 'AGENT_ERROR',
      sparse: 'AGENT_ERROR',
      small: 'PASSED',
    });
    for (const id of ['burst', 'stream', 'sparse'])
      expect(defined(fill.results[id].error).message).toMatch(/past its disk limit of 20\.0 MiB/);
    for (const r of [tamper, killOwn, fill]) expect(await podmanLeftovers(r.runId)).toEqual([]);
  }, 300_000);

  it('refuses what Podman cannot do, and a socket that is not one, at load (exit 2); no service is exit 3', async () => {
    const [installed, remote, missing] = await Promise.all([
      runCli(['run', 'shell-tasks', '--agent', 'cli:opencode', '--provider', 'podman']),
      runCli(['run', 'shell-tasks', '--agent', 'oracle', '--provider', 'podman'], {
        env: { CONTAINER_HOST: 'ssh://core@box/run/podman/podman.sock' },
      }),
      runCli(['run', 'shell-tasks', '--agent', 'oracle', '--provider', 'podman', '--output', tempDir()], {
        env: { CONTAINER_HOST: 'unix:///run/no-such-podman.sock' },
      }),
    ]);
    expect(installed.code).toBe(2);
    expect(installed.stderr).toContain('not on Podman');
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain('CONTAINER_HOST: "ssh://core@box/run/podman/podman.sock" is not a unix:///path');
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('Podman is not reachable at unix:///run/no-such-podman.sock');
  }, 120_000);

  it("a harness killed with SIGKILL leaves containers, a network and a volume that the next run's sweep removes", async () => {
    const out = tempDir();
    const args = ['run', bench('sidecar-db'), '--agent', agent('sleepy'), '--agent-opt', 'seconds=120'];
    const child = execa('node', [BIN, ...args, '--provider', 'podman', '--mode', 'threads', '--output', out], {
      cwd: REPO,
      env: { NO_COLOR: '1' },
      reject: false,
      stdin: 'ignore',
    });
    let runId = '';
    let left: string[] = [];
    // main and db both up (the volume and the network come before them)
    for (let i = 0; i < 240 && left.filter((l) => l.startsWith('container')).length < 2; i++) {
      await sleep(500);
      try {
        runId = readJson<{ run_id: string }>(join(runDirIn(out), 'run.json')).run_id;
        left = await podmanLeftovers(runId);
      } catch {
        // the run folder is not there yet
      }
    }
    child.kill('SIGKILL');
    await child;
    const after = await podmanLeftovers(runId);
    expect(after.filter((l) => l.startsWith('container'))).toHaveLength(2); // main and db: nothing removed them
    expect(after.filter((l) => !l.startsWith('container')).map((l) => l.split(' ')[0])).toEqual(['network', 'volume']);
    const next = await onPodman('shell-tasks', 'nop', 'single', ['--limit', '1']);
    expect(next.code).toBe(1);
    expect(await podmanLeftovers(runId)).toEqual([]);
  }, 300_000);
});
