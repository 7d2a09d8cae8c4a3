import { describe, expect, it } from 'vitest';
import { reportOf } from '../../support/report.ts';
import { buildMatrix } from '../../../src/report/matrix.ts';
import { pairedDifference, t975 } from '../../../src/report/paired.ts';
import type { TrialResult, TrialStatus } from '../../../src/types.ts';
import { trial } from './fixtures.ts';
import { defined } from '../../support/defined.ts';

async function run(agent: string, list: Array<[string, TrialStatus, string?]>) {
  const results: TrialResult[] = list.map(([sample, status, hash], i) =>
    trial(sample, status, { task_id: `${sample}-t${i}`, md: { input_hash: hash ?? `hash-${sample}` } }),
  );
  const report = await reportOf(results, {
    benchmark: { name: 'b', n_samples: list.length },
    agent: agent,
    run: { id: agent, dir: `/evals/${agent}`, started_at: '2025-01-01T00:00:00Z' },
  });
  return { report, trials: results.map((r) => ({ task_id: r.task_id, sample_id: r.sample_id })) };
}

describe('the tasks x runs matrix', () => {
  it('matches tasks by input hash across runs (a renamed sample stays one row) and marks regressions, fixed, differing', async () => {
    const a = await run('a', [
      ['p', 'PASSED'],
      ['q', 'FAILED'],
      ['r', 'PASSED'],
      ['s', 'AGENT_ERROR'],
    ]);
    const b = await run('b', [
      ['p', 'FAILED'],
      ['q-renamed', 'PASSED', 'hash-q'],
      ['r', 'PASSED'],
      ['new', 'PASSED'],
    ]);
    const c = await run('c', [
      ['p', 'PASSED'],
      ['q', 'FAILED'],
      ['r', 'SANDBOX_ERROR'],
    ]);
    const m = buildMatrix([a, b, c]);
    const row = (id: string) => defined(m.rows.find((r) => r.sample_id === id));
    expect(m.rows.map((r) => r.sample_id)).toEqual(['p', 'q', 'r', 's', 'new']);
    expect(row('q').names).toEqual(['q', 'q-renamed']);
    expect(row('q').cells.map((x) => x?.state ?? 'absent')).toEqual(['failing', 'passing', 'failing']);
    expect(defined(row('q').cells[1]).task_ids).toEqual(['q-renamed-t1']);
    expect(row('p').cells.map((x) => x?.state)).toEqual(['passing', 'failing', 'passing']);
    expect(row('r').cells.map((x) => x?.state)).toEqual(['passing', 'passing', 'not_graded']);
    expect(row('s').cells.map((x) => x?.state ?? 'absent')).toEqual(['unanswered', 'absent', 'absent']);
    expect(row('new').cells.map((x) => x?.state ?? 'absent')).toEqual(['absent', 'passing', 'absent']);
    expect(m.rows.filter((r) => r.regression).map((r) => r.sample_id)).toEqual(['p']);
    expect(m.rows.filter((r) => r.fixed).map((r) => r.sample_id)).toEqual(['q']);
    expect(m.rows.filter((r) => r.differing).map((r) => r.sample_id)).toEqual(['p', 'q', 'r', 's', 'new']);
    expect(m.runs.map((r) => r.label)).toEqual(['a', 'b', 'c']);
    // b against a: p, q, r are graded in both (s and new are each in one run only)
    expect(m.diffs[0]).toBeNull();
    expect(defined(m.diffs[1]).n).toBe(3);
    expect(defined(m.diffs[1]).diff).toBeCloseTo((-1 + 1 + 0) / 3, 12);
  });

  it('names runs of one agent by their label, else by the part of their run id that tells them apart', async () => {
    const a = await run('same', [['p', 'PASSED']]);
    const b = await run('same', [['p', 'PASSED']]);
    a.report.run.id = '20250101-000000-4242-k3j2x1';
    b.report.run.id = '20250101-000000-4343-q9w8e7';
    expect(buildMatrix([a, b]).runs.map((r) => r.label)).toEqual(['k3j2x1', 'q9w8e7']);
    b.report.run.label = 'new prompt';
    expect(buildMatrix([a, b]).runs.map((r) => r.label)).toEqual(['k3j2x1', 'new prompt']);
  });
});

describe('paired difference of pass rates', () => {
  it('is the mean per-task difference with a Student t interval (checked by hand)', () => {
    // differences 1, 0, 0, -0.5: mean 0.125, sd = sqrt(((0.875)^2 + 2*(0.125)^2 + (0.625)^2)/3) = 0.6292
    const d = pairedDifference([
      [0, 1],
      [1, 1],
      [0, 0],
      [1, 0.5],
    ]);
    expect(d.n).toBe(4);
    expect(d.diff).toBeCloseTo(0.125, 12);
    const sd = Math.sqrt((0.875 ** 2 + 2 * 0.125 ** 2 + 0.625 ** 2) / 3);
    const half = (3.182 * sd) / 2;
    expect(defined(d.ci95)[0]).toBeCloseTo(0.125 - half, 10);
    expect(0.125 + half).toBeGreaterThan(1);
    expect(defined(d.ci95)[1]).toBe(1); // clamped: a difference of two rates never exceeds 1
    expect([d.baseline_rate, d.current_rate]).toEqual([0.5, 0.625]);
  });

  it('gives no interval for one task and nothing for none; t falls to 1.96 for large samples', () => {
    expect(pairedDifference([[0, 1]])).toEqual({ n: 1, diff: 1, ci95: null, baseline_rate: 0, current_rate: 1 });
    expect(pairedDifference([])).toEqual({ n: 0, diff: null, ci95: null, baseline_rate: null, current_rate: null });
    expect([t975(1), t975(30), t975(1000)]).toEqual([12.706, 2.042, 1.96]);
    const same = pairedDifference(Array.from({ length: 10 }, () => [1, 1] as [number, number]));
    expect(same.ci95).toEqual([0, 0]);
  });
});
