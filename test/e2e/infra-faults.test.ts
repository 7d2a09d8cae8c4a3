// Infrastructure faults mid-run: a container that dies, a daemon that stops answering and comes
// back, a daemon that never comes back. Never blamed on the agent, never a hang, nothing left.
import { execa } from 'execa';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, FIXTURES, REPO, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { benchrigContainers, requireDocker } from '../support/docker.ts';
import { startDockerProxy, type DockerProxy } from '../support/docker-proxy.ts';
import { sweep } from '../../src/sandbox/docker/sweep.ts';
import { docker } from '../../src/sandbox/docker/client.ts';
import { buildLabels } from '../../src/sandbox/docker/labels.ts';
import { testRunId } from '../support/docker.ts';
import { defined } from '../support/defined.ts';

const hasDocker = await requireDocker();
const bench = join(FIXTURES, 'benchmarks/many-shell');
const agent = (n: string) => join(FIXTURES, 'agents', `${n}.ts`);
const runIdOf = (dir: string) => readJson(join(dir, 'run.json')).run_id as string;

describe.skipIf(!hasDocker)('infrastructure faults', () => {
  let proxy: DockerProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  it('a container that dies mid-trial is retried with a fresh sandbox, not blamed on the agent', async () => {
    const out = tempDir();
    const markers = tempDir();
    const r = await runCli([
      'run',
      bench,
      '--agent',
      agent('vanish'),
      '--agent-opt',
      `marker_dir=${markers}`,
      '--mode',
      'single',
      '--limit',
      '2',
      '--output',
      out,
    ]);
    const dir = onlyRunDir(out, 'vanish', 'many-shell');
    const rs = results(dir);
    expect(rs.map((x) => x.status)).toEqual(['PASSED', 'PASSED']);
    expect(r.stderr).toMatch(/infrastructure error.*retrying with a fresh sandbox/);
    expect(r.code).toBe(0);
    expect(await benchrigContainers(runIdOf(dir))).toEqual([]);
  });

  it('a daemon that stops answering mid-run and comes back: SANDBOX_ERROR or a successful retry, never AGENT_ERROR', async () => {
    proxy = await startDockerProxy();
    const out = tempDir();
    const child = execa(
      'node',
      [BIN, 'run', bench, '--agent', agent('sleepy'), '--agent-opt', 'seconds=1', '--mode', 'single', '--output', out],
      {
        cwd: REPO,
        reject: false,
        env: { NO_COLOR: '1', DOCKER_HOST: proxy.url },
        stdin: 'ignore',
        timeout: 300_000,
      },
    );
    await sleep(4000); // a trial or two in
    await proxy.down();
    await sleep(2500);
    await proxy.up();
    const r = await child;
    const dir = onlyRunDir(out, 'sleepy', 'many-shell');
    const statuses = results(dir).map((x) => x.status);
    expect(statuses).toHaveLength(8);
    expect(
      statuses.filter((s) => s !== 'PASSED' && s !== 'SANDBOX_ERROR'),
      r.stderr,
    ).toEqual([]);
    expect([0, 1]).toContain(r.exitCode);
    expect(await benchrigContainers(runIdOf(dir))).toEqual([]);
  }, 300_000);

  it('Docker lost mid-run: the passed trials do not pass the gate alone; incomplete, exit 1', async () => {
    proxy = await startDockerProxy();
    const out = tempDir();
    const child = execa(
      'node',
      [
        BIN,
        'run',
        bench,
        '--agent',
        agent('sleepy'),
        '--agent-opt',
        'seconds=1',
        '--mode',
        'threads',
        '--workers',
        '2',
        '--output',
        out,
      ],
      {
        cwd: REPO,
        reject: false,
        env: { NO_COLOR: '1', DOCKER_HOST: proxy.url },
        stdin: 'ignore',
        timeout: 300_000,
      },
    );
    let dir = '';
    for (let i = 0; i < 1200 && !dir; i++) {
      try {
        const d = onlyRunDir(out, 'sleepy', 'many-shell');
        if (results(d).length >= 2) dir = d;
      } catch {
        // no run folder yet
      }
      if (!dir) await sleep(50);
    }
    await proxy.down(); // and never up again
    const r = await child;
    try {
      const statuses = results(dir).map((x) => x.status);
      const lost = statuses.filter((s) => s === 'SANDBOX_ERROR').length;
      expect(statuses).toHaveLength(8);
      expect(
        statuses.filter((s) => s !== 'PASSED' && s !== 'SANDBOX_ERROR'),
        r.stderr,
      ).toEqual([]);
      expect(lost).toBeGreaterThan(0);
      expect(lost).toBeLessThan(8);
      const report = readJson(join(dir, 'evaluation_report.json'));
      expect(report.metrics).toMatchObject({ pass_rate: 1, n_missing: lost, missing_rate: lost / 8 });
      expect(report.gate).toMatchObject({
        passed: false,
        value: 1,
        detail: `incomplete: ${lost} of 8 trials without a verdict`,
      });
      expect(r.stdout).toContain(`missing    ${lost} of 8 trials without a verdict`);
      expect(r.stdout).toContain(
        `gate       FAILED incomplete: ${lost} of 8 trials without a verdict (pass_rate 1 >= 1)`,
      );
      expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain(`${lost} of 8 trials without a verdict`);
      expect(r.exitCode, r.stderr).toBe(1);
    } finally {
      await sweep({ runId: runIdOf(dir) }); // what was running when the daemon went away, through the real socket
    }
  }, 300_000);

  it("a dead run's container whose removal never answers: the start-up sweep warns, naming it, and the run goes on", async () => {
    proxy = await startDockerProxy();
    const deadRun = testRunId('stuck-removal');
    try {
      // Another run's start-up sweep (tests run side by side) may remove the leftover first: then again.
      for (let attempt = 1; ; attempt++) {
        const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
        const left = await docker().createContainer({
          Image: 'benchrig/busybox:1',
          Cmd: ['true'],
          HostConfig: { NetworkMode: 'none' },
          Labels: buildLabels({ runId: deadRun, sessionId: 'stuck', pid: deadPid, host: os.hostname() }),
        });
        proxy.hold(new RegExp(`^DELETE /(?:v[\\d.]+/)?containers/${left.id}\\?`)); // its removal alone never answers
        const out = tempDir();
        const started = Date.now();
        const r = await execa(
          'node',
          [BIN, 'run', bench, '--agent', 'oracle', '--mode', 'single', '--limit', '1', '--output', out],
          {
            cwd: REPO,
            reject: false,
            env: { NO_COLOR: '1', DOCKER_HOST: proxy.url },
            stdin: 'ignore',
            timeout: 300_000,
          },
        );
        if (!proxy.held().some((l) => l.includes(left.id)) && attempt < 3) continue;
        expect(proxy.held().some((l) => l.includes(left.id))).toBe(true);
        expect(r.stderr).toContain(`container ${left.id.slice(0, 12)}`);
        expect(r.stderr).toMatch(
          /container [0-9a-f]{12} of run test-stuck-removal-[0-9a-f]+ not removed \(Docker did not answer within \d+ ms: remove\); left for the next sweep/,
        );
        expect(r.stderr).not.toMatch(/Docker failed/);
        const dir = onlyRunDir(out, 'oracle', 'many-shell');
        expect(results(dir).map((x) => x.status)).toEqual(['PASSED']);
        expect(r.exitCode, r.stderr).toBe(0);
        expect(Date.now() - started).toBeLessThan(120_000);
        expect(await benchrigContainers(runIdOf(dir))).toEqual([]);
        break;
      }
    } finally {
      await sweep({ runId: deadRun }); // through the real socket
    }
  }, 400_000);

  it('a daemon that never comes back: every trial SANDBOX_ERROR and exit 3', async () => {
    proxy = await startDockerProxy();
    const out = tempDir();
    const child = execa(
      'node',
      [BIN, 'run', bench, '--agent', 'oracle', '--mode', 'single', '--limit', '1', '--output', out],
      {
        cwd: REPO,
        reject: false,
        env: { NO_COLOR: '1', DOCKER_HOST: proxy.url },
        stdin: 'ignore',
        timeout: 300_000,
      },
    );
    // Down as soon as the run folder exists: the checks at the start passed, every sandbox start fails.
    for (let i = 0; i < 300; i++) {
      try {
        onlyRunDir(out, 'oracle', 'many-shell');
        break;
      } catch {
        await sleep(20);
      }
    }
    await proxy.down();
    const r = await child;
    const dir = onlyRunDir(out, 'oracle', 'many-shell');
    const rs = results(dir);
    expect(rs.map((x) => x.status)).toEqual(['SANDBOX_ERROR']);
    expect(defined(rs[0].error).kind).toBe('sandbox');
    expect(readJson(join(dir, 'evaluation_report.json')).metrics.infra_error_rate).toBe(1);
    expect(r.exitCode, r.stderr).toBe(3);
  }, 300_000);
});
