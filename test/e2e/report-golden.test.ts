// The report stays exactly the same (issue 17): on a fixed run folder (test/fixtures/runs/golden,
// made by its make.ts), `benchrig evaluate` writes an evaluation_report.json equal, key by key and
// value by value, to the one the code before the streaming work wrote (expected-report.json), and
// report.html carries the same trials. GOLDEN_RECORD=1 rewrites the expected file (only ever from
// code known to be right).
import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, readJson, runCli, tempDir } from '../support/cli.ts';
import { defined } from '../support/defined.ts';

const GOLDEN = join(FIXTURES, 'runs/golden');
const EXPECTED = join(GOLDEN, 'expected-report.json');

/** A copy of the fixed run, its run.json pointing at the copied benchmark. */
function copyRun(): { runDir: string; benchDir: string } {
  const root = tempDir('benchrig-golden-');
  cpSync(join(GOLDEN, 'run'), join(root, 'run'), { recursive: true });
  cpSync(join(GOLDEN, 'benchmark'), join(root, 'benchmark'), { recursive: true });
  const runJson = join(root, 'run/run.json');
  writeFileSync(runJson, readFileSync(runJson, 'utf8').replace('BENCHMARK_DIR', join(root, 'benchmark')));
  return { runDir: join(root, 'run'), benchDir: join(root, 'benchmark') };
}

/** The report with the machine-specific path made neutral. */
const neutral = (report: unknown, runDir: string) =>
  JSON.parse(JSON.stringify(report).split(JSON.stringify(runDir).slice(1, -1)).join('RUN_DIR'));

describe('evaluation_report.json on a fixed run folder', () => {
  it('benchrig evaluate writes every key and value as before', async () => {
    const { runDir } = copyRun();
    const before = readdirSync(join(runDir, 'results')).map((n) => readFileSync(join(runDir, 'results', n), 'utf8'));
    const r = await runCli(['evaluate', runDir], { env: { NO_COLOR: '1' } });
    expect([0, 1], r.stderr).toContain(r.code);
    const report = neutral(readJson(join(runDir, 'evaluation_report.json')), runDir);
    if (process.env.GOLDEN_RECORD === '1') writeFileSync(EXPECTED, JSON.stringify(report, null, 2) + '\n');
    expect(report).toStrictEqual(readJson(EXPECTED));
    // re-grading found nothing to change: the result files are untouched
    expect(readdirSync(join(runDir, 'results')).map((n) => readFileSync(join(runDir, 'results', n), 'utf8'))).toEqual(
      before,
    );

    // report.html embeds every trial once and the report's numbers
    const html = readFileSync(join(runDir, 'report.html'), 'utf8');
    const data = JSON.parse(
      defined(/<script type="application\/json" id="benchrig-data">([\s\S]*?)<\/script>/.exec(html))[1],
    );
    expect(data.trials.map((t: { task_id: string }) => t.task_id).sort()).toEqual(
      before.map((t) => JSON.parse(t).task_id).sort(),
    );
    expect(data.report.metrics).toStrictEqual(report.metrics);
    // the page's tasks are the report's, less what only the job report reads (report/html.ts pageTask)
    const shown = report.tasks.map(({ task_id: _l, mean_score: _s, ...t }: Record<string, unknown>) => t);
    expect(data.report.tasks).toStrictEqual(shown);
  }, 60_000);

  it('the expected report covers what the fixture is for', () => {
    const e = readJson(EXPECTED);
    expect(e.metrics.n_trials).toBe(48);
    expect(Object.values(e.metrics.status_counts).filter((n) => (n as number) > 0).length).toBeGreaterThanOrEqual(5);
    expect(Object.keys(e.metrics.pass_at)).toEqual(['1', '2', '3', '4']);
    expect(e.tasks.some((t: { flaky: boolean }) => t.flaky)).toBe(true);
    expect(e.slowest_trials).toHaveLength(5);
    expect(e.metrics.cost_usd).toBeGreaterThan(0);
  });
});
