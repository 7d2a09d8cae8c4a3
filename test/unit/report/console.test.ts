import { describe, expect, it } from 'vitest';
import { reportOf } from '../../support/report.ts';
import { formatSummary } from '../../../src/report/console.ts';
import type { EvaluationReport } from '../../../src/report/types.ts';
import { trial } from './fixtures.ts';

const ESC = '\u001b';

async function report(
  results = defaultResults(),
  gate?: { metric: string; threshold: number },
): Promise<EvaluationReport> {
  return reportOf(results, {
    benchmark: { name: 'demo', n_samples: 4 },
    agent: 'react',
    run: { id: 'r1', dir: '/tmp/r1' },
    gate,
  });
}

function defaultResults() {
  const v = (passed: boolean, reason: string) => ({
    name: 'answer',
    type: 'exact',
    passed,
    score: passed ? 1 : 0,
    reason,
  });
  return [
    trial('a', 'PASSED', { task_id: 'a', checks: [v(true, 'equals "1"')] }),
    trial('b', 'PASSED', { task_id: 'b', checks: [v(true, 'equals "2"')] }),
    trial('c', 'PASSED', { task_id: 'c', checks: [v(true, 'equals "3"')] }),
    trial('d', 'FAILED', { task_id: 'd', checks: [v(false, `expected "4", got "5"\n${ESC}[31mred${ESC}[0m`)] }),
  ];
}

describe('formatSummary', () => {
  it('plain text without colour: headline, counts, gate, checks, failures', async () => {
    const text = formatSummary(await report(undefined, { metric: 'pass_rate', threshold: 0.7 }), { color: false });
    expect(text).not.toContain(ESC);
    expect(text).toContain('pass rate  75.0% (95% CI 30.1%–95.4%)');
    expect(text).toContain('mean score 0.75');
    expect(text).toContain('trials     4: PASSED 3, FAILED 1');
    expect(text).toContain('gate       PASSED pass_rate 0.75 >= 0.7');
    expect(text).toMatch(/answer \(exact\)\s+75\.0%\s+3\/4/);
    expect(text).toContain('  d  FAILED           answer: expected "4", got "5" red');
  });

  it("shows each check's mean score, as MRR for reciprocal_rank (over its gradable verdicts)", async () => {
    const rr = (score: number, passed: boolean | null) => ({
      name: 'mrr',
      type: 'reciprocal_rank',
      score,
      passed,
      reason: '',
    });
    const text = formatSummary(
      await report([
        trial('a', 'PASSED', { task_id: 'a', checks: [rr(1, true)] }),
        trial('b', 'PASSED', { task_id: 'b', checks: [rr(0.5, true)] }),
        trial('c', 'FAILED', { task_id: 'c', checks: [rr(0, false)] }),
        trial('d', 'UNGRADABLE', { task_id: 'd', checks: [rr(0, null)] }),
      ]),
      { color: false },
    );
    // (1 + 0.5 + 0) / 3: the ungradable verdict is left out
    expect(text).toMatch(/mrr \(reciprocal_rank\)\s+66\.7%\s+2\/3 {2}MRR 0\.5\n/);
    expect(formatSummary(await report(), { color: false })).toMatch(
      /answer \(exact\)\s+75\.0%\s+3\/4 {2}mean score 0\.75\n/,
    );
  });

  it('gate failing and missing evidence', async () => {
    const failed = formatSummary(await report(undefined, { metric: 'pass_rate', threshold: 0.9 }), { color: false });
    expect(failed).toContain('gate       FAILED pass_rate 0.75 < 0.9');
    const none = formatSummary(await report([trial('x', 'UNGRADABLE')], { metric: 'pass_rate', threshold: 0.9 }), {
      color: false,
    });
    expect(none).toContain('pass rate  n/a (nothing gradable)');
    expect(none).toContain('gate       FAILED pass_rate: missing evidence');
    expect(formatSummary(await report(), { color: false })).toContain('gate       none');
  });

  it('colours with ANSI codes when asked', async () => {
    const text = formatSummary(await report(), { color: true });
    expect(text).toContain(`${ESC}[32mPASSED${ESC}[0m`);
    expect(text).toContain(`${ESC}[31mFAILED${ESC}[0m`);
  });

  it('an incomplete run: the missing share next to the pass rate, and the gate says incomplete', async () => {
    const rs = [trial('a', 'PASSED'), trial('b', 'PASSED'), trial('c', 'SANDBOX_ERROR'), trial('d', 'UNGRADABLE')];
    const text = formatSummary(await report(rs, { metric: 'pass_rate', threshold: 0.9 }), { color: false });
    expect(text).toMatch(/pass rate {2}100\.0%.*\nmissing {4}2 of 4 trials without a verdict \(50\.0%\)/);
    expect(text).toContain('gate       FAILED incomplete: 2 of 4 trials without a verdict (pass_rate 1 >= 0.9)');
    expect(
      formatSummary(await report(undefined, { metric: 'pass_rate', threshold: 0.7 }), { color: false }),
    ).not.toContain('missing');
  });
});
