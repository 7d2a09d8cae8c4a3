// Ctrl-C, SIGTERM and kill -9 in the middle of a sandboxed run, then --resume: nothing lost,
// nothing run twice, no container left.
import { execa, type ResultPromise } from 'execa';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BIN, FIXTURES, REPO, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { benchrigContainers, requireDocker } from '../support/docker.ts';
import { defined } from '../support/defined.ts';

const hasDocker = await requireDocker();
const bench = join(FIXTURES, 'benchmarks/many-shell');
const sleepy = join(FIXTURES, 'agents/sleepy.ts');
const MODES = ['single', 'threads', 'processes'].filter((m) =>
  (process.env.BENCHRIG_TEST_MODES ?? 'single,threads,processes').includes(m),
);

function start(out: string, mode: string, extra: string[] = [], detached = false): ResultPromise {
  return execa(
    'node',
    [
      BIN,
      'run',
      bench,
      '--agent',
      sleepy,
      '--agent-opt',
      'seconds=1',
      '--mode',
      mode,
      '--workers',
      '2',
      '--output',
      out,
      ...extra,
    ],
    {
      cwd: REPO,
      reject: false,
      env: { NO_COLOR: '1' },
      stdin: 'ignore',
      detached,
    },
  );
}

/** Waits until the run has saved at least `n` results (and so has sandboxes up for others). */
async function untilResults(out: string, n: number, timeoutMs = 90_000): Promise<string> {
  const t0 = Date.now();
  for (;;) {
    try {
      const dir = onlyRunDir(out, 'sleepy', 'many-shell');
      const saved = existsSync(join(dir, 'results'))
        ? readdirSync(join(dir, 'results')).filter((f) => f.endsWith('.json'))
        : [];
      if (saved.length >= n) return dir;
    } catch {
      // no run folder yet
    }
    if (Date.now() - t0 > timeoutMs) throw new Error(`no ${n} results after ${timeoutMs} ms`);
    await sleep(100);
  }
}

const runIdOf = (dir: string) => readJson(join(dir, 'run.json')).run_id as string;

describe.skipIf(!hasDocker).each(MODES)('interrupting a run in %s mode', (mode) => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s drains, removes every sandbox, writes a partial report and exits 130',
    async (sig) => {
      const out = tempDir();
      const child = start(out, mode);
      const dir = await untilResults(out, 1);
      child.kill(sig);
      const r = await child;
      expect(r.exitCode, String(r.stderr)).toBe(130);
      const runJson = readJson(join(dir, 'run.json'));
      expect(runJson.status).toBe('interrupted');
      const report = readJson(join(dir, 'evaluation_report.json'));
      expect(report.run.status).toBe('interrupted');
      const saved = results(dir);
      expect(saved.length).toBeGreaterThanOrEqual(1);
      expect(saved.length).toBeLessThan(8);
      expect(saved.every((x) => x.status === 'PASSED')).toBe(true); // interrupted trials are not saved as failures
      expect(report.metrics.n_trials).toBe(saved.length);
      expect(await benchrigContainers(runIdOf(dir))).toEqual([]);
    },
  );

  it('kill -9 then --resume runs every trial exactly once and leaves earlier results untouched', async () => {
    const out = tempDir();
    const child = start(out, mode);
    const dir = await untilResults(out, 2);
    child.kill('SIGKILL');
    await child;
    const before = new Map(
      readdirSync(join(dir, 'results'))
        .filter((f) => f.endsWith('.json'))
        .map((f) => [f, readFileSync(join(dir, 'results', f), 'utf8')]),
    );
    const runId = runIdOf(dir);
    const r = await runCli([
      'run',
      bench,
      '--agent',
      sleepy,
      '--agent-opt',
      'seconds=1',
      '--mode',
      mode,
      '--workers',
      '2',
      '--resume',
      dir,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`${before.size} trial\\(s\\) kept`));
    const after = readdirSync(join(dir, 'results')).filter((f) => f.endsWith('.json'));
    expect(after.sort()).toEqual(Array.from({ length: 8 }, (_, i) => `task-${i + 1}.json`).sort());
    for (const [f, content] of before) expect(readFileSync(join(dir, 'results', f), 'utf8')).toBe(content);
    expect(readdirSync(join(dir, 'results')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const report = readJson(join(dir, 'evaluation_report.json'));
    expect(report.metrics.n_trials).toBe(8);
    expect(report.metrics.pass_rate).toBe(1);
    expect(readJson(join(dir, 'run.json')).status).toBe('complete');
    // what the killed harness left behind was swept by the resumed run
    expect(await benchrigContainers(runId)).toEqual([]);
  });
});

describe.skipIf(!hasDocker)('Ctrl-C in a terminal', () => {
  it('reaches the whole process group; workers leave cancellation to the main process', async () => {
    const out = tempDir();
    const child = start(out, 'processes', [], true); // its own process group, like a terminal's job
    const dir = await untilResults(out, 1);
    process.kill(-defined(child.pid), 'SIGINT');
    const r = await child;
    expect(r.exitCode, String(r.stderr)).toBe(130);
    expect(readJson(join(dir, 'run.json')).status).toBe('interrupted');
    expect(
      results(dir)
        .map((x) => `${x.status} ${x.error?.message ?? ''}`)
        .filter((s) => !s.startsWith('PASSED')),
    ).toEqual([]); // no worker death blamed on the agent
    expect(await benchrigContainers(runIdOf(dir))).toEqual([]);
  });
});

describe.skipIf(!hasDocker)('--resume refuses a changed run', () => {
  it('exits 2 naming what changed, and runs nothing', async () => {
    const out = tempDir();
    const first = await runCli([
      'run',
      bench,
      '--agent',
      'oracle',
      '--mode',
      'single',
      '--limit',
      '2',
      '--output',
      out,
    ]);
    expect(first.code).toBe(0);
    const dir = onlyRunDir(out, 'oracle', 'many-shell');
    const r = await runCli([
      'run',
      bench,
      '--agent',
      'oracle',
      '--mode',
      'single',
      '--limit',
      '2',
      '--max-turns',
      '7',
      '--resume',
      dir,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/settings changed.*limits/);
    const other = await runCli(['run', bench, '--agent', 'nop', '--mode', 'single', '--limit', '2', '--resume', dir]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/agent/);
  });
});
