// McNemar's exact test, the sign test and Holm's correction (src/report/mcnemar.ts), checked by hand
// (and against R's binom.test); the job report's pairs and trial links; and a job's exit code.
import { describe, expect, it } from 'vitest';
import { jobExitCode } from '../../../src/exit-codes.ts';
import { buildJobReport, trialLink, type JobCellInput } from '../../../src/report/job-report.ts';
import { holm, mcnemarExact, signTest } from '../../../src/report/mcnemar.ts';
import type { EvaluationReport } from '../../../src/report/types.ts';

describe('mcnemarExact', () => {
  it('is 2 × P(X ≤ min(b, c)) for X ~ Binomial(b + c, 1/2), at most 1', () => {
    expect(mcnemarExact(0, 0)).toBe(1);
    expect(mcnemarExact(8, 0)).toBeCloseTo(2 / 256, 12); // 0.0078125
    expect(mcnemarExact(1, 4)).toBeCloseTo((2 * (1 + 5)) / 32, 12); // 0.375
    expect(mcnemarExact(3, 3)).toBe(1);
    expect(mcnemarExact(2000, 2100)).toBeGreaterThan(0.1); // large n neither overflows nor NaNs
  });
});

describe('signTest', () => {
  it('is the exact two-sided binomial test of plus vs minus (R: binom.test(x, n)$p.value)', () => {
    expect(signTest(9, 1)).toBeCloseTo(0.021484375, 12); // binom.test(9, 10)
    expect(signTest(6, 1)).toBeCloseTo(0.125, 12); // binom.test(6, 7)
    expect(signTest(2, 10)).toBeCloseTo(0.0385742, 6); // binom.test(2, 12)
    expect(signTest(5, 5)).toBe(1);
    expect(signTest(0, 0)).toBe(1);
  });
});

describe('holm', () => {
  it('multiplies the i-th smallest p by (m − i), monotone, capped at 1, in the input order', () => {
    expect(holm([0.01, 0.04, 0.03])).toEqual([0.03, 0.06, 0.06]);
    expect(holm([0.5, 0.9])).toEqual([1, 1]);
    expect(holm([])).toEqual([]);
  });
});

describe('jobExitCode', () => {
  it('is the worst cell’s; with gate-any, 0 when one cell is 0', () => {
    expect(jobExitCode([0, 1, 0], false)).toBe(1);
    expect(jobExitCode([0, 3, 1], false)).toBe(3);
    expect(jobExitCode([0, 130], false)).toBe(130);
    expect(jobExitCode([1, 0, 3], true)).toBe(0);
    expect(jobExitCode([1, 3], true)).toBe(3);
  });
});

type Task = EvaluationReport['tasks'][number];
const task = (id: string, passed: number, score: number, taskId = id): Task => ({
  sample_id: id,
  input_hash: `h-${id}`,
  trials: 1,
  passed,
  gradable: 1,
  statuses: { [passed ? 'PASSED' : 'FAILED']: 1 },
  cost_usd: null,
  mean_score: score,
  task_id: taskId,
  flaky: false,
});
const cell = (id: string, tasks: Task[]): JobCellInput =>
  ({
    id,
    label: id,
    agent: 'a',
    model: id,
    run_dir: id,
    exit_code: 0,
    report: {
      benchmark: { name: 'b' },
      run: { status: 'complete', trials: 1, duration_s: 1 },
      metrics: {
        n_trials: tasks.length,
        pass_rate: 0,
        pass_rate_ci95: null,
        mean_score: 0,
        cost_usd: null,
        tokens: { input: 0, output: 0 },
        infra_error_rate: 0,
        pass_at: {},
        pass_hat: {},
      },
      gate: null,
      tasks,
    },
  }) as unknown as JobCellInput;

describe("the job report's pairs", () => {
  const ids = ['t1', 't2', 't3', 't4', 't5', 't6', 't7', 't8', 't9', 't10'];
  it('adds the sign test when scores are graded, Holm-corrected with McNemar over all tests', () => {
    // x: every task fails at 0.2; y: fails at 0.6 on 9, 0.1 on one; z: passes all (score 1 = its pass fraction)
    const x = cell(
      'x',
      ids.map((i) => task(i, 0, 0.2)),
    );
    const y = cell(
      'y',
      ids.map((i, k) => task(i, 0, k === 0 ? 0.1 : 0.6)),
    );
    const z = cell(
      'z',
      ids.map((i) => task(i, 1, 1)),
    );
    const [b] = buildJobReport('j', 'complete', [x, y, z]).benchmarks;
    const xy = b.pairs.find((p) => p.a === 'x' && p.b === 'y');
    expect(xy).toMatchObject({ only_a: 0, only_b: 0, p_value: 1 });
    expect(xy?.score).toMatchObject({ n: 10, higher_a: 1, higher_b: 9, test: 'sign' });
    expect(xy?.score?.diff).toBeCloseTo((9 * 0.4 - 0.1) / 10, 12);
    expect(xy?.score?.p_value).toBeCloseTo(0.021484375, 12);
    // the family: 3 McNemar tests + 3 sign tests (x–z and y–z have graded scores on one side)
    const family = b.pairs.flatMap((p) => (p.score ? [p.p_value, p.score.p_value] : [p.p_value]));
    expect(family).toHaveLength(6);
    expect(holm(family)).toContain(xy?.score?.p_adjusted);
    expect(xy?.score?.significant).toBe((xy?.score?.p_adjusted ?? 1) < 0.05);
  });

  it('has no score test when scores are only pass/fail', () => {
    const a = cell(
      'a',
      ids.map((i) => task(i, 1, 1)),
    );
    const c = cell(
      'c',
      ids.map((i) => task(i, 0, 0)),
    );
    const [b] = buildJobReport('j', 'complete', [a, c]).benchmarks;
    expect(b.pairs).toHaveLength(1);
    expect(b.pairs[0]).toMatchObject({ only_a: 10, only_b: 0, score: null, significant: true, better: 'a' });
  });

  it('links a matrix cell to the trial page by its file-safe task id', () => {
    const a = cell('run a', [task('q 8/x', 0, 0, 'q_8_x')]);
    expect(buildJobReport('j', 'complete', [a]).benchmarks[0].matrix[0].links).toEqual([
      'run a/report.html#trial=q_8_x',
    ]);
    expect(trialLink({ run_dir: 'r' }, { task_id: 'a b~2' })).toBe('r/report.html#trial=a%20b~2');
    expect(trialLink({ run_dir: 'r' }, {})).toBeNull();
  });
});
