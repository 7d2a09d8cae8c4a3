// An agent must not be able to move its own score (docs/sandboxes.md): every attack of a hostile agent
// on grading, run through the real CLI in real Docker sandboxes. None of these agents solves its
// task; each tries to pass anyway, and each must end FAILED (or AGENT_ERROR), counted in pass_rate.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureImage } from '../../src/sandbox/docker/images.ts';
import { FIXTURES, REPO, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { benchrigContainers, requireDocker } from '../support/docker.ts';
import { defined } from '../support/defined.ts';
import type { KeptFolders } from '../support/cli.ts';

const hasDocker = await requireDocker();
const bench = (name: string) => join(FIXTURES, 'benchmarks', name);
const agent = (name: string) => join(FIXTURES, 'agents', `${name}.ts`);

async function attack(benchmark: string, name: string, env: Record<string, string> = {}, mode = 'single') {
  const out = tempDir();
  const cli = await runCli(['run', bench(benchmark), '--agent', agent(name), '--mode', mode, '--output', out], { env });
  const dir = onlyRunDir(out, name, benchmark);
  const [result] = results(dir);
  const report = readJson(join(dir, 'evaluation_report.json'));
  const left = await benchrigContainers(readJson(join(dir, 'run.json')).run_id);
  return { cli, result, report, left, check: (n: string) => result.checks.find((c: { name: string }) => c.name === n) };
}

describe.skipIf(!hasDocker)('grading is out of the agent reach', () => {
  beforeAll(async () => {
    // Debian's dash looks tools up on PATH, so replacing them there is a real attack (busybox runs its own applets).
    await ensureImage({ image: 'benchrig/debian:1', build: join(REPO, 'sandboxes/debian'), trusted: true });
  }, 300_000);

  it('the honest reference solution still passes every check', async () => {
    const out = tempDir();
    const r = await runCli(['run', bench('tamper-debian'), '--agent', 'oracle', '--mode', 'single', '--output', out]);
    const [result] = results(onlyRunDir(out, 'oracle', 'tamper-debian'));
    expect(result.status, JSON.stringify(result.checks)).toBe('PASSED');
    expect(r.code).toBe(0);
  });

  it.each([
    ['tamper-background', 'a process left running that rewrites the tests as they are copied in'],
    ['tamper-respawn', 'a tree of processes that ignore signals and restart each other, in sessions of their own'],
    ['tamper-pid1', 'PID 1, which grading keeps, traced and its memory opened before such a process is left'],
    ['replace-sh', 'a replaced /bin/sh'],
    ['replace-tools', 'replaced test, [, cat and grep'],
    ['plant-tests', 'a read-only (and, if it could, immutable) test planted where the tests go'],
    ['plant-tests-symlink', 'the tests folder made a symlink to a passing test'],
    ['plant-tests-file', 'a file where the tests folder goes'],
  ])('%s (%s): the tests still grade the real work, and fail', async (name) => {
    const { result, report, left } = await attack('tamper-debian', name);
    expect(result.status).toBe('FAILED');
    expect(result.checks.find((c: { name: string }) => c.name === 'tests pass')).toMatchObject({
      passed: false,
      reason: 'exit 1: 0 passed, 1 failed',
    });
    expect(report.metrics.pass_rate).toBe(0);
    expect(left).toEqual([]);
  });

  it('PID 1, which grading keeps running, cannot be traced, written or signalled by the agent', async () => {
    const { result } = await attack('tamper-debian', 'tamper-pid1');
    expect(result.response).toContain('0: ptrace attach: refused\nmem: refused\npid 1: alive\n');
    expect(result.status).toBe('FAILED');
  });

  it('a broken state file is a failed check, not an ungradable one that would leave the trial PASSED', async () => {
    const { result, check } = await attack('tamper-debian', 'corrupt-state');
    expect(check('tests pass')).toMatchObject({ passed: true });
    expect(check('state file')).toMatchObject({ passed: false });
    expect(defined(check('state file')).reason).toMatch(/did not print JSON/);
    expect(result.status).toBe('FAILED');
  });

  it.each([
    ['kill-all', 'kill -9 -1'],
    ['kill-own-sandbox', 'SIGTERM to its init, the toolbox keep-alive, which the kernel drops'],
  ])('%s (%s) is the agent failing, counted and never retried, not an infrastructure error', async (name) => {
    const { cli, result, report, left } = await attack('tamper-shell', name);
    expect(['AGENT_ERROR', 'FAILED']).toContain(result.status);
    expect(result.error?.kind ?? null).not.toBe('sandbox');
    expect(cli.stderr).not.toMatch(/retrying/);
    expect(report.metrics.status_counts.SANDBOX_ERROR).toBe(0);
    expect(report.metrics.pass_rate).toBe(0); // counted: 0 of 1, not left out as missing
    expect(cli.code).toBe(1); // the gate fails; 3 would say "could not run"
    expect(left).toEqual([]);
  });

  it('tests that call the image\'s own tools by path: the same sandbox lets a replaced tool through; isolation = "fresh" does not', async () => {
    // What README "What benchrig guarantees" says the agent can still reach: the image's own programs.
    const same = await attack('tamper-image', 'replace-image-grep');
    expect(same.result.status).toBe('PASSED');
    const fresh = await attack('tamper-image', 'replace-image-grep', { BENCHRIG_GRADING__ISOLATION: 'fresh' });
    expect(fresh.result.status).toBe('FAILED');
    expect(fresh.left).toEqual([]); // the grading container is removed too
    // The agent's work (the workdir) is what reaches the fresh container: the oracle passes there.
    const out = tempDir();
    await runCli(['run', bench('tamper-image'), '--agent', 'oracle', '--mode', 'single', '--output', out], {
      env: { BENCHRIG_GRADING__ISOLATION: 'fresh' },
    });
    expect(results(onlyRunDir(out, 'oracle', 'tamper-image'))[0].status).toBe('PASSED');
  });
});

describe.skipIf(!hasDocker)("a Harbor task's reward is the verifier's, never one the agent wrote", () => {
  it('the honest solution passes the task every attack below is on', async () => {
    const out = tempDir();
    await runCli(['run', bench('tamper-harbor'), '--agent', 'oracle', '--mode', 'single', '--output', out]);
    const [result] = results(onlyRunDir(out, 'oracle', 'tamper-harbor'));
    expect(result.status, JSON.stringify(result.checks)).toBe('PASSED');
    expect(result.checks[0]).toMatchObject({ passed: true, details: { rewards: { reward: 1 }, source: 'reward.txt' } });
  });

  it.each([
    ['plant-reward', 'reward.txt read-only in a read-only /logs/verifier'],
    ['plant-reward-json', 'a read-only reward.json, the folder and /logs read-only'],
    [
      'plant-reward-symlinks',
      '/logs/verifier a symlink to a read-only folder whose reward.txt links to a read-only file; /logs read-only',
    ],
    ['plant-reward-fake-logs', '/logs a symlink to a fake tree with a read-only reward'],
    [
      'plant-reward-other-user',
      'the folder owned by another uid, read-only, which root without capabilities cannot chmod',
    ],
  ])("%s (%s): the verifier's own reward is read, and fails", async (name) => {
    const { result, report, left } = await attack('tamper-harbor', name);
    expect(result.status).toBe('FAILED');
    expect(result.checks[0]).toMatchObject({
      passed: false,
      score: 0,
      reason: 'reward=0 (reward.txt); below 1',
      details: { rewards: { reward: 0 }, source: 'reward.txt' },
    });
    expect(report.metrics.pass_rate).toBe(0);
    expect(left).toEqual([]);
  });

  it('with isolation = "fresh" and /logs among the outputs, the planted reward is carried over and still never counts', async () => {
    const config = join(tempDir(), 'fresh.toml');
    writeFileSync(config, '[grading]\nisolation = "fresh"\noutputs = ["/workspace", "/logs"]\n');
    const out = tempDir();
    await runCli([
      'run',
      bench('tamper-harbor'),
      '--agent',
      agent('plant-reward'),
      '--mode',
      'single',
      '--output',
      out,
      '--config',
      config,
    ]);
    const [result] = results(onlyRunDir(out, 'plant-reward', 'tamper-harbor'));
    expect(result.status).toBe('FAILED');
    expect(result.checks[0]).toMatchObject({ passed: false, reason: 'reward=0 (reward.txt); below 1' });
    expect(Object.keys(result.artifacts.kept as KeptFolders).sort()).toEqual(['agent', 'artifacts', 'verifier']); // /logs came over
  });

  it('with isolation = "fresh" and /logs/agent among the outputs (its parent /logs not in the image), the honest solution still passes', async () => {
    const config = join(tempDir(), 'fresh.toml');
    writeFileSync(config, '[grading]\nisolation = "fresh"\noutputs = ["/workspace", "/logs/agent"]\n');
    const out = tempDir();
    const cli = await runCli([
      'run',
      bench('tamper-harbor'),
      '--agent',
      'oracle',
      '--mode',
      'single',
      '--output',
      out,
      '--config',
      config,
    ]);
    const dir = onlyRunDir(out, 'oracle', 'tamper-harbor');
    const [result] = results(dir);
    expect(result.status, JSON.stringify(result.error ?? result.checks)).toBe('PASSED');
    expect(cli.code).toBe(0);
    // The agent's log came over into the fresh sandbox, and out of it into the run folder.
    expect(existsSync(join(dir, (result.artifacts.kept as KeptFolders).agent, 'oracle.txt'))).toBe(true);
    expect(await benchrigContainers(readJson(join(dir, 'run.json')).run_id)).toEqual([]);
  });

  it('with isolation = "fresh", an output the agent deleted or made a symlink out of its sandbox: never passes, nothing followed', async () => {
    const config = join(tempDir(), 'fresh.toml');
    writeFileSync(config, '[grading]\nisolation = "fresh"\noutputs = ["/workspace", "/logs/agent"]\n');
    for (const name of ['delete-agent-logs', 'symlink-agent-logs']) {
      const out = tempDir();
      await runCli([
        'run',
        bench('tamper-harbor'),
        '--agent',
        agent(name),
        '--mode',
        'single',
        '--output',
        out,
        '--config',
        config,
      ]);
      const dir = onlyRunDir(out, name, 'tamper-harbor');
      const [result] = results(dir);
      expect(['FAILED', 'AGENT_ERROR'], name).toContain(result.status);
      expect(result.error?.kind ?? null, name).not.toBe('sandbox');
      const kept = (result.artifacts?.kept as KeptFolders | undefined)?.agent;
      if (kept) expect(existsSync(join(dir, kept, 'passwd')), name).toBe(false);
      expect(await benchrigContainers(readJson(join(dir, 'run.json')).run_id)).toEqual([]);
    }
  });

  it('a /logs owned by another uid and read-only, where no fresh folder can be made: FAILED, saying why, its reward never read', async () => {
    const { result, report, left } = await attack('tamper-harbor', 'plant-reward-other-user-logs');
    expect(result.status).toBe('FAILED');
    expect(result.checks[0]).toMatchObject({ passed: false, score: 0, details: { rewards: null } });
    expect(result.checks[0].reason).toMatch(
      /^\/logs\/verifier could not be made a fresh folder for the verifier \(.*Permission denied\): the agent left it so, and no reward in it is read$/,
    );
    expect(report.metrics.pass_rate).toBe(0);
    expect(left).toEqual([]);
  });
});

describe.skipIf(!hasDocker)("the agent's hands leave the sandbox when its turn ends", () => {
  it.each(['single', 'threads', 'processes'])(
    'after-hours (a timer loop that goes on calling ctx.sandbox after respond() returned), --mode %s: refused, and FAILED',
    async (mode) => {
      const { result, report, left, check } = await attack('tamper-debian', 'after-hours', {}, mode);
      expect(result.status, JSON.stringify(result.checks)).toBe('FAILED');
      expect(check('tests pass')).toMatchObject({ passed: false, reason: 'exit 1: 0 passed, 1 failed' });
      expect(check('state file')).toMatchObject({ passed: false });
      expect(report.metrics.pass_rate).toBe(0);
      // Its log holds no call of the agent's after its last reply: none was made in the sandbox.
      const events: Array<{ type: string; done?: boolean }> = result.events;
      const done = events.findIndex((e) => e.type === 'agent_message' && e.done);
      expect(done).toBeGreaterThan(-1);
      expect(events.slice(done).filter((e) => e.type === 'tool_call' || e.type === 'tool_result')).toEqual([]);
      expect(left).toEqual([]);
    },
    120_000,
  );
});
