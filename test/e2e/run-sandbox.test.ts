// The real CLI on sandboxed benchmarks against the real Docker daemon.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docker } from '../../src/sandbox/docker/client.ts';
import { benchrigContainers, requireDocker } from '../support/docker.ts';
import { FIXTURES, REPO, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { defined } from '../support/defined.ts';
import type { ExecOutput } from '../../src/types.ts';

const hasDocker = await requireDocker();
const mini = join(FIXTURES, 'benchmarks/mini-shell');
const agent = (name: string) => join(FIXTURES, 'agents', `${name}.ts`);

// Other test files run sandboxes at the same time: look only at the containers of this run.
const leftBy = async (runDir: string) => benchrigContainers(readJson(join(runDir, 'run.json')).run_id);

describe.skipIf(!hasDocker)('benchrig run in Docker sandboxes', () => {
  it('shell-tasks: the oracle passes every task and the run exits 0', async () => {
    const out = tempDir();
    const r = await runCli(['run', 'shell-tasks', '--agent', 'oracle', '--mode', 'single', '--output', out]);
    const dir = onlyRunDir(out, 'oracle', 'shell-tasks');
    const report = readJson(join(dir, 'evaluation_report.json'));
    const failing = results(dir)
      .filter((x) => x.status !== 'PASSED')
      .map((x) => `${x.task_id}: ${x.status} ${JSON.stringify(x.checks)} ${JSON.stringify(x.error)}`);
    expect(failing).toEqual([]);
    expect(report.benchmark.n_samples).toBeGreaterThanOrEqual(20);
    expect(report.metrics.pass_rate).toBe(1);
    expect(r.code).toBe(0);
    const one = results(dir)[0];
    expect((one.artifacts['sandbox_test:tests pass'] as ExecOutput).exit_code).toBe(0);
    expect(defined(one.metadata.sandbox).image).toBe('benchrig/busybox:1');
    expect(await leftBy(dir)).toEqual([]);
  }, 600_000);

  it('shell-tasks: nop passes nothing and the gate fails with exit 1', async () => {
    const out = tempDir();
    const r = await runCli([
      'run',
      join(REPO, 'benchmarks/shell-tasks'),
      '--agent',
      'nop',
      '--mode',
      'single',
      '--output',
      out,
      '--quiet',
    ]);
    const dir = onlyRunDir(out, 'nop', 'shell-tasks');
    const report = readJson(join(dir, 'evaluation_report.json'));
    expect(
      results(dir)
        .filter((x) => x.status === 'PASSED')
        .map((x) => x.task_id),
    ).toEqual([]);
    expect(report.metrics.pass_rate).toBe(0);
    expect(report.gate).toMatchObject({ passed: false });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/gate/i);
  }, 600_000);

  it('a throwing agent costs only its own trial, and its sandbox is removed', async () => {
    const out = tempDir();
    await runCli(['run', mini, '--agent', agent('crash'), '--mode', 'single', '--output', out, '--quiet']);
    const dir = onlyRunDir(out, 'crash', 'mini-shell');
    const byId = Object.fromEntries(results(dir).map((x) => [x.sample_id, x]));
    expect(byId['hang-or-crash'].status).toBe('AGENT_ERROR');
    expect(byId.greet.status).toBe('PASSED');
    expect(byId.count.status).toBe('PASSED');
    expect(await leftBy(dir)).toEqual([]);
  });

  it('a hanging agent ends in TIMEOUT and its sandbox is removed', async () => {
    const out = tempDir();
    const t0 = Date.now();
    const r = await runCli([
      'run',
      mini,
      '--agent',
      agent('hang'),
      '--mode',
      'single',
      '--trial-timeout',
      '2',
      '--output',
      out,
    ]);
    expect(Date.now() - t0).toBeLessThan(60_000);
    const dir = onlyRunDir(out, 'hang', 'mini-shell');
    const byId = Object.fromEntries(results(dir).map((x) => [x.sample_id, x]));
    expect(byId['hang-or-crash'].status).toBe('TIMEOUT');
    expect(byId['hang-or-crash'].stop_reason).toBe('timeout');
    expect(byId.greet.status).toBe('PASSED');
    expect(readJson(join(dir, 'evaluation_report.json')).metrics.timeout_rate).toBeCloseTo(1 / 3);
    expect(r.code).toBe(1); // the gate asks for 1.0
    expect(await leftBy(dir)).toEqual([]);
  });

  it('[sandbox] setup runs after the files are copied in, then the sample setup', async () => {
    const out = tempDir();
    const r = await runCli([
      'run',
      join(FIXTURES, 'benchmarks/setup-order'),
      '--agent',
      'nop',
      '--mode',
      'single',
      '--output',
      out,
    ]);
    const dir = onlyRunDir(out, 'nop', 'setup-order');
    expect(results(dir).map((x) => `${x.status} ${x.error?.message ?? ''}`)).toEqual(['PASSED ']);
    expect(r.code).toBe(0);
  });

  it('[sandbox.shared] is filled once and mounted read-only in every sandbox; prepareShared runs once', async () => {
    const out = tempDir();
    const r = await runCli([
      'run',
      join(FIXTURES, 'benchmarks/shared-volume'),
      '--agent',
      'nop',
      '--mode',
      'processes',
      '--workers',
      '2',
      '--output',
      out,
    ]);
    const dir = onlyRunDir(out, 'nop', 'shared-volume');
    expect(results(dir).map((x) => `${x.status} ${x.checks[0]?.reason ?? x.error?.message}`)).toEqual([
      'PASSED exit 0; 1 passed, 0 failed',
      'PASSED exit 0; 1 passed, 0 failed',
    ]);
    expect(readFileSync(join(dir, 'prepare-shared.txt'), 'utf8')).toBe('prepared for 2 samples\n');
    expect(r.code).toBe(0);
    const runId = readJson(join(dir, 'run.json')).run_id;
    expect(
      await docker()
        .listVolumes({ filters: JSON.stringify({ label: [`benchrig.run=${runId}`] }) })
        .then((v) => v.Volumes ?? []),
    ).toEqual([]);
    expect(await leftBy(dir)).toEqual([]);
  });

  it('a failing setup command is SANDBOX_ERROR at once: retrying could not help', async () => {
    const out = tempDir();
    const r = await runCli([
      'run',
      join(FIXTURES, 'benchmarks/setup-fails'),
      '--agent',
      'nop',
      '--mode',
      'single',
      '--output',
      out,
    ]);
    const dir = onlyRunDir(out, 'nop', 'setup-fails');
    const [res] = results(dir);
    expect(res.status).toBe('SANDBOX_ERROR');
    expect(defined(res.error).message).toMatch(/\[sandbox\] setup failed \(exit 1\): test -f \/does\/not\/exist/);
    expect(r.stderr).not.toMatch(/retrying/);
    expect(r.code).toBe(3); // every trial an infrastructure error
    expect(await leftBy(dir)).toEqual([]);
  });

  it('--keep-sandbox leaves the sandbox up and prints how to enter it', async () => {
    const out = tempDir();
    const r = await runCli(['run', mini, '--agent', 'oracle', '--sample', 'greet', '--keep-sandbox', '--output', out]);
    const id = /docker exec -it ([0-9a-f]{12}) sh/.exec(r.stderr)?.[1];
    expect(id, r.stderr).toBeDefined();
    const c = docker().getContainer(defined(id));
    expect((await c.inspect()).State.Running).toBe(true);
    await c.remove({ force: true });
  });

  it('an unreachable Docker is one line with the remedy and exit 3; no-sandbox benchmarks still run', async () => {
    const env = { DOCKER_HOST: 'unix:///nonexistent/docker.sock' };
    const out = tempDir();
    const r = await runCli(['run', mini, '--agent', 'oracle', '--mode', 'single', '--output', out], { env });
    expect(r.code).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/Docker is not reachable.*(Start it|install it)/);
    const ok = await runCli(
      ['run', join(FIXTURES, 'benchmarks/echo-local'), '--agent', 'oracle', '--mode', 'single', '--output', out],
      { env },
    );
    expect(ok.code).toBe(0);
  });
});
