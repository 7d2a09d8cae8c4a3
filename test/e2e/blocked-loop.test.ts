// The real CLI, in every mode, with an agent that blocks its event loop for good (`while (true) {}`)
// on one sample: that trial ends as TIMEOUT within --trial-timeout plus 10 s (threads and processes
// took the timeout + 70 s before: the main side's deadline waited for a sandbox start and two grace
// periods; single never ended), its result is on disk, its sandbox is gone, and every other sample
// still passes. In single mode (the default with --sample) Ctrl-C during the spin ends the run too.
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { docker } from '../../src/sandbox/docker/client.ts';
import { benchrigContainers, requireDocker } from '../support/docker.ts';
import { BIN, FIXTURES, REPO, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { defined } from '../support/defined.ts';
import type { TrialResult } from '../../src/types.ts';

const hasDocker = await requireDocker();
const TIMEOUT_S = 4;

describe.skipIf(!hasDocker).each(['threads', 'processes'] as const)(
  'benchrig run --mode %s, an agent that blocks its event loop',
  (mode) => {
    it('ends that trial as TIMEOUT within the timeout plus 10 s and the run goes on', async () => {
      const out = tempDir();
      const r = await runCli(
        [
          'run',
          join(FIXTURES, 'benchmarks/pool-sandbox'),
          '--agent',
          join(FIXTURES, 'agents/block-loop.ts'),
          '--agent-opt',
          'ms=200',
          '--mode',
          mode,
          '--workers',
          '2',
          '--trial-timeout',
          String(TIMEOUT_S),
          '--output',
          out,
          '--quiet',
        ],
        { timeoutMs: 120_000 },
      );
      const dir = onlyRunDir(out, 'block-loop', 'pool-sandbox');
      const byId: Record<string, TrialResult> = Object.fromEntries(results(dir).map((x) => [x.sample_id, x]));
      const spin = byId.spin;
      expect(spin).toMatchObject({ status: 'TIMEOUT', stop_reason: 'timeout', error: { kind: 'timeout' } });
      expect(defined(spin.error).message).toMatch(
        /exceeded trial_timeout_s = 4 and its worker did not answer .*event loop was blocked/,
      );
      const seconds = (Date.parse(spin.finished_at) - Date.parse(spin.started_at)) / 1000;
      expect(seconds).toBeGreaterThanOrEqual(TIMEOUT_S);
      expect(seconds).toBeLessThan(TIMEOUT_S + 10);
      // The six others ran on the other worker and on the blocked one's replacement.
      const others = Object.values(byId).filter((x) => x.sample_id !== 'spin');
      expect(others.map((x) => `${x.sample_id} ${x.status}`).sort()).toEqual(
        ['exit', 'ok', 'slow1', 'slow2', 'slow3', 'slow4'].map((id) => `${id} PASSED`),
      );
      const report = readJson(join(dir, 'evaluation_report.json'));
      expect(report.metrics.timeout_rate).toBeCloseTo(1 / 7);
      expect(readJson(join(dir, 'run.json')).status).toBe('complete');
      expect(r.code, r.stderr).toBe(0);
      expect(await benchrigContainers(readJson(join(dir, 'run.json')).run_id)).toEqual([]);
    }, 150_000);
  },
);

const bench = join(FIXTURES, 'benchmarks/pool-sandbox');
const blockLoop = join(FIXTURES, 'agents/block-loop.ts');

describe.skipIf(!hasDocker).each([
  ['--mode single', ['--mode', 'single'], ['exit', 'ok', 'slow1', 'slow2', 'slow3', 'slow4']],
  ['--sample (single by default)', ['--sample', 'spin,ok'], ['ok']],
] as const)('benchrig run %s, an agent that blocks the event loop', (_, args, passing) => {
  it('ends that trial as TIMEOUT within the timeout plus 10 s and the run goes on', async () => {
    const out = tempDir();
    const r = await runCli(
      [
        'run',
        bench,
        '--agent',
        blockLoop,
        '--agent-opt',
        'ms=200',
        ...args,
        '--trial-timeout',
        String(TIMEOUT_S),
        '--output',
        out,
        '--quiet',
      ],
      { timeoutMs: 120_000 },
    );
    const dir = onlyRunDir(out, 'block-loop', 'pool-sandbox');
    const runJson = readJson(join(dir, 'run.json'));
    expect(runJson.mode).toBe('single');
    const byId: Record<string, TrialResult> = Object.fromEntries(results(dir).map((x) => [x.sample_id, x]));
    expect(byId.spin).toMatchObject({ status: 'TIMEOUT', stop_reason: 'timeout', error: { kind: 'timeout' } });
    const seconds = (Date.parse(byId.spin.finished_at) - Date.parse(byId.spin.started_at)) / 1000;
    expect(seconds).toBeGreaterThanOrEqual(TIMEOUT_S);
    expect(seconds).toBeLessThan(TIMEOUT_S + 10);
    const others = Object.values(byId).filter((x) => x.sample_id !== 'spin');
    expect(others.map((x) => `${x.sample_id} ${x.status}`).sort()).toEqual(passing.map((id) => `${id} PASSED`));
    expect(runJson.status).toBe('complete');
    expect(r.code, r.stderr).toBe(0);
    expect(await benchrigContainers(runJson.run_id)).toEqual([]);
  }, 150_000);
});

/** The run's sandbox once the agent has made it and gone into its loop (it touches a file first); its run id. */
async function untilSpinning(out: string): Promise<string> {
  const t0 = Date.now();
  while (Date.now() - t0 < 90_000) {
    await sleep(200);
    let runId: string;
    try {
      const dir = onlyRunDir(out, 'block-loop', 'pool-sandbox');
      if (!existsSync(join(dir, 'run.json'))) continue;
      runId = readJson(join(dir, 'run.json')).run_id;
    } catch {
      continue; // no run folder yet
    }
    for (const c of await benchrigContainers(runId)) {
      const marked = await docker()
        .getContainer(c.Id)
        .getArchive({ path: '/tmp/blocked-here' })
        .then(
          () => true,
          () => false,
        );
      if (marked) return runId;
    }
  }
  throw new Error('the agent never started spinning');
}

describe.skipIf(!hasDocker)('Ctrl-C in single mode while the agent blocks the event loop', () => {
  it('exits 130 within seconds, run.json interrupted, no container left', async () => {
    const out = tempDir();
    const child = execa(
      'node',
      [BIN, 'run', bench, '--agent', blockLoop, '--sample', 'spin', '--trial-timeout', '120', '--output', out],
      {
        cwd: REPO,
        reject: false,
        env: { NO_COLOR: '1' },
        stdin: 'ignore',
      },
    );
    let runId = '';
    try {
      runId = await untilSpinning(out);
      await sleep(500);
      const sent = Date.now();
      child.kill('SIGINT');
      const exited = await Promise.race([child.then(() => true), sleep(20_000).then(() => false)]);
      expect(exited, 'the process did not exit within 20 s of SIGINT').toBe(true);
      expect(Date.now() - sent).toBeLessThan(15_000);
      const r = await child;
      expect(r.exitCode, String(r.stderr)).toBe(130);
      const dir = onlyRunDir(out, 'block-loop', 'pool-sandbox');
      expect(readJson(join(dir, 'run.json')).status).toBe('interrupted');
      expect(readJson(join(dir, 'evaluation_report.json')).run.status).toBe('interrupted');
      expect(results(dir)).toEqual([]); // an interrupted trial is not saved: --resume runs it again
      expect(await benchrigContainers(runId)).toEqual([]);
    } finally {
      child.kill('SIGKILL');
      for (const c of runId ? await benchrigContainers(runId) : [])
        await docker()
          .getContainer(c.Id)
          .remove({ force: true })
          .catch(() => {});
    }
  }, 150_000);
});
