import { describe, expect, it } from 'vitest';
import { reportOf } from '../../support/report.ts';
import { analyzeReport, slowestTrials } from '../../../src/report/analysis.ts';
import { formatSummary } from '../../../src/report/console.ts';
import { trial, trials } from './fixtures.ts';

async function report() {
  const failing = (name: string) => ({ name, type: 'exact', passed: false, score: 0, reason: 'no' });
  const passing = (name: string) => ({ name, type: 'exact', passed: true, score: 1, reason: 'yes' });
  const results = [
    ...trials('flaky', ['PASSED', 'FAILED']).map((t, i) => ({
      ...t,
      task_id: `flaky-t${i + 1}`,
      checks: [i ? failing('a') : passing('a'), passing('b')],
    })),
    trial('slow', 'TIMEOUT', {
      task_id: 'slow',
      stop_reason: 'timeout',
      error: { kind: 'timeout', message: 'over 5s' },
      md: { execution_time_s: 5 },
    }),
    trial('ok', 'PASSED', {
      task_id: 'ok',
      checks: [passing('a'), failing('b')],
      md: { tokens: { input: 100, output: 7 }, cost_usd: 0.25, llm_calls: 3 },
    }),
  ];
  return {
    results,
    report: await reportOf(results, { benchmark: { name: 'demo', n_samples: 3 }, agent: 'x', run: { trials: 2 } }),
  };
}

describe('the analysis in the summary', () => {
  it('failing checks, flaky tasks, errors, stop reasons, slowest trials, tokens and cost', async () => {
    const { report: r, results } = await report();
    const a = analyzeReport(r, await slowestTrials(results, 2));
    expect(a.failingChecks.map((c) => [c.name, c.failed])).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
    expect(a.flakyTasks).toEqual(['flaky']);
    expect(a.errorKinds).toEqual([['timeout', 1]]);
    expect(a.slowest).toEqual([
      { task_id: 'slow', status: 'TIMEOUT', execution_time_s: 5 },
      { task_id: 'flaky-t1', status: 'PASSED', execution_time_s: 1 },
    ]);

    const text = formatSummary(r, { color: false, slowest: a.slowest });
    expect(text).not.toContain('\u001b');
    expect(text).toContain('per task   pass@2 66.7%   pass^2 33.3%   over 3 task(s)');
    expect(text).toContain('  flaky tasks  1: flaky');
    expect(text).toContain('  errors       timeout 1');
    expect(text).toContain('  stop reasons agent_done 3, timeout 1');
    expect(text).toContain('  slowest      slow 5.00s (TIMEOUT), flaky-t1 1.00s (PASSED)');
    expect(text).toContain('  llm          3 call(s), tokens 100 in / 7 out, cost $0.2500');
    expect(formatSummary(r, { color: true })).toContain('\u001b[33mtimeout 1\u001b[0m');
  });

  it('prints a comparison when the report carries one', async () => {
    const { report: r } = await report();
    const text = formatSummary(
      {
        ...r,
        comparison: {
          baseline: { dir: 'evals/x/old' },
          regressions: [{ sample_id: 'ok' }],
          fixed: [],
          new_failures: [],
        },
      },
      { color: false },
    );
    expect(text).toContain('compared with evals/x/old');
    expect(text).toMatch(/ {2}regressions +1: ok/);
  });
});
