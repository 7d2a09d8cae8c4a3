// The commands over saved runs, through the real CLI on benchmarks without a sandbox:
// run --baseline, compare, history, evaluate, review and validate --run.
import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { defined } from '../support/defined.ts';

const echo = join(FIXTURES, 'benchmarks/echo-local');
const agent = (name: string) => join(FIXTURES, 'agents', `${name}.ts`);
const runsOf = (out: string, agentId: string, bench = 'echo-local') =>
  readdirSync(join(out, agentId, bench))
    .sort()
    .map((n) => join(out, agentId, bench, n));
const report = (dir: string) => readJson(join(dir, 'evaluation_report.json'));

/** A copy of echo-local to change: `mutate(dir)` edits it before use. */
function benchCopy(mutate: (dir: string) => void = () => {}): string {
  const dir = join(tempDir(), 'echo-local');
  cpSync(echo, dir, { recursive: true });
  mutate(dir);
  return dir;
}

/** An agent whose model is down: every trial ends in AGENT_ERROR. */
function outageAgent(): string {
  const file = join(tempDir(), 'outage.mjs');
  writeFileSync(
    file,
    "export default () => ({ respond: async () => { throw new Error('model endpoint unreachable'); } });\n",
  );
  return file;
}

const run = (bench: string, out: string, agentRef: string, ...more: string[]) =>
  runCli(['run', bench, '--agent', agentRef, '--agent-id', 'bot', '--mode', 'single', '--output', out, ...more]);

describe('comparison across runs', () => {
  it('run --baseline auto compares with the latest run that graded something, never an outage', async () => {
    const out = tempDir();
    expect((await run(echo, out, 'oracle')).code).toBe(0);
    const outage = await run(echo, out, outageAgent(), '--baseline', 'auto');
    const [good, down] = runsOf(out, 'bot');
    expect(report(down).metrics.agent_error_rate).toBe(1);
    // the outage run itself compares with the good one: all unanswered, no regression
    expect(report(down).comparison).toMatchObject({ counts: { regressions: 0, unanswered: 4 } });
    expect(outage.code).toBe(1);

    const r = await run(echo, out, agent('crash'), '--baseline', 'auto');
    expect(r.stderr).toContain(`skipped ${down}: the agent answered nothing`);
    const third = runsOf(out, 'bot')[2];
    const c = report(third).comparison;
    expect(c.baseline.dir).toBe(good);
    expect(c.regressions.map((t: { sample_id: string }) => t.sample_id)).toEqual(['d']); // echo of "say cherry" lacks "grape"
    expect(c.unanswered.map((t: { sample_id: string }) => t.sample_id)).toEqual(['c']); // the crash agent throws on c
    expect(c.counts).toMatchObject({
      regressions: 1,
      unanswered: 1,
      new_failures: 0,
      fixed: 0,
      persistent: 0,
      still_passing: 2,
    });
    expect(c.metrics.pass_rate).toEqual({ baseline: 1, current: 0.5, delta: -0.5 });
    expect(r.stdout).toMatch(/compared with/);
    // re-grading keeps the comparison, made again against the same baseline
    await runCli(['evaluate', third]);
    expect(report(third).comparison).toMatchObject({
      baseline: { dir: good },
      counts: { regressions: 1, unanswered: 1 },
    });
  });

  it('refuses an outage run given as --baseline (exit 2, no run folder left behind)', async () => {
    const out = tempDir();
    await run(echo, out, outageAgent());
    const [down] = runsOf(out, 'bot');
    const r = await run(echo, out, 'oracle', '--baseline', down);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${down} cannot be the baseline: the agent answered nothing`);
    expect(runsOf(out, 'bot')).toEqual([down]);
    const c = await runCli(['compare', down, down]);
    expect(c.code).toBe(2);
  });

  it('compare matches renamed samples by input, flags the version change, and history shows the trend', async () => {
    const out = tempDir();
    const renamed = benchCopy();
    await run(renamed, out, 'oracle');
    // The same questions under new ids, one expectation changed: a new version of the same benchmark
    // (the same folder: another folder with this name would be another benchmark, docs/benchmarks.md#identity).
    ((dir: string) => {
      const rows = readFileSync(join(dir, 'data.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const next = rows.map((row, i) => ({
        ...row,
        id: `row-${i + 1}`,
        ...(row.id === 'a' ? { expected: 'pear', solution: { reply: 'apple' } } : {}),
      }));
      writeFileSync(join(dir, 'data.jsonl'), next.map((x) => JSON.stringify(x)).join('\n') + '\n');
    })(renamed);
    await run(renamed, out, 'oracle');
    const [before, after] = runsOf(out, 'bot');

    const r = await runCli(['compare', before, after]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/WARNING: benchmark versions differ/);
    expect(r.stdout).toMatch(/regressions \(1\)[\s\S]*row-1 \(was a\)/);
    const json = await runCli(['compare', before, after, '--json']);
    const c = JSON.parse(json.stdout);
    expect(c.versions_differ).toBe(true);
    expect(
      c.regressions.map((t: { before: { sample_id: string }; sample_id: string }) => [t.before.sample_id, t.sample_id]),
    ).toEqual([['a', 'row-1']]);
    expect(c.counts).toMatchObject({ regressions: 1, still_passing: 3, new_failures: 0, removed: 0 });

    const h = await runCli(['history', join(out, 'bot', 'echo-local')]);
    expect(h.code).toBe(0);
    const lines = h.stdout.split('\n').filter((l) => /^\s+\d{8}-\d{6}/.test(l));
    expect(lines.map((l) => l.trim().split(/\s+/)[0])).toEqual([before, after].map((d) => d.split('/').at(-1)));
    expect(lines[0]).toMatch(/100\.0% \(/);
    expect(lines[1]).toMatch(/\*.*75\.0% \(/); // version change marked
    const hj = JSON.parse((await runCli(['history', join(out, 'bot', 'echo-local'), '--json'])).stdout);
    expect(hj.map((x: { version_changed: boolean }) => x.version_changed)).toEqual([false, true]);
  });
});

describe('benchrig evaluate', () => {
  it('reproduces the report of an untouched run without rewriting any result', async () => {
    const out = tempDir();
    const bench = benchCopy();
    await run(bench, out, agent('crash'));
    const [dir] = runsOf(out, 'bot');
    const before = report(dir);
    const mtimes = readdirSync(join(dir, 'results')).map((f) => statSync(join(dir, 'results', f)).mtimeMs);
    const r = await runCli(['evaluate', dir]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('0 result file(s) changed');
    expect(r.stderr).not.toMatch(/warning/);
    const after = report(dir);
    for (const key of ['metrics', 'checks', 'tasks', 'gate', 'top_failures', 'top_successes', 'benchmark', 'agent'])
      expect(after[key], key).toEqual(before[key]);
    expect(readdirSync(join(dir, 'results')).map((f) => statSync(join(dir, 'results', f)).mtimeMs)).toEqual(mtimes);

    // The benchmark changes under the run: d's expectation now matches the reply. Re-graded, with a warning.
    const rows = readFileSync(join(bench, 'data.jsonl'), 'utf8').replace('"expected": "grape"', '"expected": "cherry"');
    writeFileSync(join(bench, 'data.jsonl'), rows);
    const again = await runCli(['evaluate', dir]);
    expect(again.stderr).toMatch(/warning: the benchmark's version is now [0-9a-f]{16}, the run was made with/);
    expect(again.stderr).toContain('1 result file(s) changed (d)');
    const d = defined(results(dir).find((x) => x.sample_id === 'd'));
    expect(d.status).toBe('PASSED');
    expect(defined(results(dir).find((x) => x.sample_id === 'c')).status).toBe('AGENT_ERROR'); // errors keep their status
    expect(report(dir).metrics.pass_rate).toBe(0.75);
    expect(readdirSync(join(dir, 'results')).every((f) => f.endsWith('.json'))).toBe(true);
  });

  it('is a usage error on a folder that is not a run', async () => {
    const r = await runCli(['evaluate', tempDir()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not a run folder \(no run.json\)/);
  });
});

describe('benchrig review', () => {
  const manualBench = () =>
    benchCopy((dir) => {
      const toml = readFileSync(join(dir, 'benchmark.toml'), 'utf8');
      writeFileSync(
        join(dir, 'benchmark.toml'),
        toml.replace('[gate]', '[[checks]]\ntype = "manual"\nname = "tone"\n\n[gate]'),
      );
    });

  it('settles an AWAITING_REVIEW trial and recomputes the run metrics and gate', async () => {
    const out = tempDir();
    const first = await run(manualBench(), out, 'oracle', '--sample', 'a,b');
    const [dir] = runsOf(out, 'bot');
    expect(results(dir).map((x) => x.status)).toEqual(['AWAITING_REVIEW', 'AWAITING_REVIEW']);
    expect(report(dir).metrics.pass_rate).toBeNull();
    expect(first.code).toBe(1); // missing evidence

    const pass = await runCli(['review', dir, 'a', '--pass', '--reason', 'polite and correct']);
    // pass_rate 1/1 meets the threshold, but b still has no verdict: the run is incomplete (docs/reports.md#metrics)
    expect(pass.code).toBe(1);
    expect(report(dir).gate).toMatchObject({
      passed: false,
      value: 1,
      detail: 'incomplete: 1 of 2 trials without a verdict',
    });
    const a = defined(results(dir).find((x) => x.task_id === 'a'));
    expect(a.status).toBe('PASSED');
    const verdict = a.checks.find((v) => v.type === 'manual');
    expect(verdict).toMatchObject({
      passed: true,
      score: 1,
      details: { review: { passed: true, reason: 'polite and correct' } },
    });
    expect(Date.parse((defined(defined(verdict).details).review as { at: string }).at)).not.toBeNaN();
    expect(report(dir).metrics).toMatchObject({
      pass_rate: 1,
      n_gradable: 1,
      status_counts: { AWAITING_REVIEW: 1, PASSED: 1 },
    });

    const fail = await runCli(['review', dir, 'b', '--fail', '--reason', 'rude']);
    expect(fail.code).toBe(0); // 1/2 = 0.5 >= 0.5
    expect(defined(results(dir).find((x) => x.task_id === 'b')).status).toBe('FAILED');
    expect(report(dir).metrics.pass_rate).toBe(0.5);

    // a settled review survives a re-grade
    const ev = await runCli(['evaluate', dir]);
    expect(ev.stderr).toContain('0 result file(s) changed');
    expect(
      results(dir)
        .map((x) => x.status)
        .sort(),
    ).toEqual(['FAILED', 'PASSED']);

    const again = await runCli(['review', dir, 'a', '--fail', '--reason', 'changed my mind']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/task "a" is PASSED, not AWAITING_REVIEW/);
    const missing = await runCli(['review', dir, 'zzz', '--pass', '--reason', 'x']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no task "zzz"/);
    expect((await runCli(['review', dir, 'a', '--reason', 'x'])).code).toBe(2); // neither --pass nor --fail
  });
});

describe('benchrig validate --run', () => {
  it('passes echo-local: the oracle passes every sample and nop none', async () => {
    const r = await runCli(['validate', echo, '--run']);
    expect(r.stdout).toMatch(/version [0-9a-f]{16}/);
    expect(r.stdout).toContain('oracle: passed all 4 sample(s)');
    expect(r.stdout).toContain('nop: passed none of 4 sample(s)');
    expect(r.code).toBe(0);
  });

  it('names the samples that break either rule and exits 1', async () => {
    const broken = benchCopy((dir) => {
      writeFileSync(
        join(dir, 'benchmark.toml'),
        readFileSync(join(dir, 'benchmark.toml'), 'utf8').replace('type = "contains"', 'type = "exact"'),
      );
      writeFileSync(
        join(dir, 'data.jsonl'),
        [
          { id: 'fine', input: 'say apple', expected: 'apple' },
          { id: 'accepts-empty', input: 'say nothing', expected: ' ' }, // exact trims: an empty reply equals it
          { id: 'wrong-solution', input: 'say kiwi', expected: 'kiwi', solution: { reply: 'mango' } },
        ]
          .map((x) => JSON.stringify(x))
          .join('\n') + '\n',
      );
    });
    const validateTemps = () => readdirSync(tmpdir()).filter((n) => n.startsWith('benchrig-validate-')).length;
    const tmpBefore = validateTemps();
    const r = await runCli(['validate', broken, '--run']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/oracle: did not pass 1 of 3[\s\S]*wrong-solution\s+FAILED/);
    expect(r.stdout).toMatch(/nop: passed 1 of 3[\s\S]*accepts-empty\s+PASSED/);
    expect(r.stdout).not.toMatch(/^\s+fine\s/m);
    expect(r.stdout).toContain('validate --run: FAILED');
    // the temporary output folder is gone
    expect(validateTemps()).toBeLessThanOrEqual(tmpBefore);
  });
});
