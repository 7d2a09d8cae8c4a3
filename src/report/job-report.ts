// The job report (docs/running.md#jobs): per benchmark, its cells side by side (pass rate and its 95%
// interval, mean score, cost and tokens per trial, time; pass@k and pass^k with n_trials > 1), the
// best cell, every pair that differs compared on the same tasks (paired difference with its interval,
// McNemar's test for pass/fail and the sign test for scores, Holm-corrected over all the benchmark's
// tests), and the tasks × cells matrix.
import { matchTasks, taskState, type TaskState } from './compare.ts';
import { holm, mcnemarExact, signTest } from './mcnemar.ts';
import { pairedDifference } from './paired.ts';
import type { EvaluationReport, TaskStats } from './types.ts';

export interface JobCellInput {
  id: string;
  label: string;
  agent: string;
  model: string;
  /** The cell's run folder, relative to the job folder (links). */
  run_dir: string;
  exit_code: number;
  report: EvaluationReport;
}

export interface JobCellRow {
  id: string;
  label: string;
  agent: string;
  model: string;
  run_dir: string;
  status: string;
  exit_code: number;
  gate_passed: boolean | null;
  n_trials: number;
  pass_rate: number | null;
  pass_rate_ci95: [number, number] | null;
  mean_score: number | null;
  cost_per_trial_usd: number | null;
  tokens_per_trial: number | null;
  duration_s: number | null;
  infra_error_rate: number | null;
  pass_at: Record<string, number>;
  pass_hat: Record<string, number>;
}

export interface JobPair {
  a: string;
  b: string;
  /** Tasks graded in both. */
  n: number;
  /** Mean over tasks of (pass fraction in b − in a), and its 95% interval. */
  diff: number | null;
  ci95: [number, number] | null;
  /** Tasks passing only in a / only in b (pass_all_k per task). */
  only_a: number;
  only_b: number;
  test: 'mcnemar';
  p_value: number;
  /** Holm-adjusted over the benchmark's pairs. */
  p_adjusted: number;
  significant: boolean;
  /** The better of the two when significant. */
  better: string | null;
  /** The scores' paired test; null when the scores say no more than pass/fail (every task's mean score is its pass fraction). */
  score: JobScoreTest | null;
}

interface JobScoreTest {
  /** Tasks with a mean score in both. */
  n: number;
  /** Mean over tasks of (mean score in b − in a), and its 95% interval. */
  diff: number | null;
  ci95: [number, number] | null;
  /** Tasks scoring higher in a / in b (ties dropped). */
  higher_a: number;
  higher_b: number;
  test: 'sign';
  p_value: number;
  /** Holm-adjusted with the benchmark's pass/fail tests. */
  p_adjusted: number;
  significant: boolean;
  better: string | null;
}

export interface JobMatrixRow {
  sample_id: string;
  input_hash: string;
  /** Per cell (in `cells` order): its state, or null when the cell has no trial of it. */
  states: Array<TaskState | null>;
  /** Per cell: the trial page of its first trial of this task (relative to the job folder). */
  links: Array<string | null>;
}

export interface JobBenchmark {
  name: string;
  cells: JobCellRow[];
  best: string | null;
  pairs: JobPair[];
  matrix: JobMatrixRow[];
}

export interface JobReport {
  schema_version: 1;
  job_id: string;
  status: string;
  alpha: number;
  passing_rule: string;
  benchmarks: JobBenchmark[];
}

const ALPHA = 0.05;

export function buildJobReport(jobId: string, status: string, cells: JobCellInput[]): JobReport {
  const names = [...new Set(cells.map((c) => c.report.benchmark.name))];
  return {
    schema_version: 1,
    job_id: jobId,
    status,
    alpha: ALPHA,
    passing_rule: 'a task passes in a cell when every gradable trial of it passed; tasks pair by input hash',
    benchmarks: names.map((name) =>
      benchmarkOf(
        name,
        cells.filter((c) => c.report.benchmark.name === name),
      ),
    ),
  };
}

function benchmarkOf(name: string, cells: JobCellInput[]): JobBenchmark {
  const rows = cells.map(rowOf);
  return { name, cells: rows, best: bestOf(rows), pairs: pairsOf(cells), matrix: matrixOf(cells) };
}

function rowOf(c: JobCellInput): JobCellRow {
  const m = c.report.metrics;
  const n = m.n_trials;
  const per = (x: number | null) => (x === null || n === 0 ? null : x / n);
  return {
    id: c.id,
    label: c.label,
    agent: c.agent,
    model: c.model,
    run_dir: c.run_dir,
    status: c.report.run.status,
    exit_code: c.exit_code,
    gate_passed: c.report.gate ? c.report.gate.passed : null,
    n_trials: n,
    pass_rate: m.pass_rate,
    pass_rate_ci95: m.pass_rate_ci95,
    mean_score: m.mean_score,
    cost_per_trial_usd: per(m.cost_usd),
    tokens_per_trial: per(m.tokens.input + m.tokens.output),
    duration_s: c.report.run.duration_s,
    infra_error_rate: m.infra_error_rate,
    pass_at: c.report.run.trials > 1 ? m.pass_at : {},
    pass_hat: c.report.run.trials > 1 ? m.pass_hat : {},
  };
}

/** The highest pass rate (then mean score, then the cheaper); none when no cell has one. */
function bestOf(rows: JobCellRow[]): string | null {
  const ranked = rows
    .filter((r) => r.pass_rate !== null)
    .sort(
      (x, y) =>
        (y.pass_rate ?? 0) - (x.pass_rate ?? 0) ||
        (y.mean_score ?? 0) - (x.mean_score ?? 0) ||
        (x.cost_per_trial_usd ?? 0) - (y.cost_per_trial_usd ?? 0),
    );
  return ranked[0]?.id ?? null;
}

const fraction = (t: { passed: number; gradable: number }) => (t.gradable > 0 ? t.passed / t.gradable : null);

type Unadjusted<T> = Omit<T, 'p_adjusted' | 'significant' | 'better'>;
type PairDraft = Unadjusted<Omit<JobPair, 'score'>> & { score: Unadjusted<JobScoreTest> | null };

function pairsOf(cells: JobCellInput[]): JobPair[] {
  const drafts: PairDraft[] = [];
  for (let i = 0; i < cells.length; i++)
    for (let j = i + 1; j < cells.length; j++) {
      const d = pairOf(cells[i], cells[j]);
      if (d) drafts.push(d);
    }
  // One family: every pass/fail test and every score test of the benchmark.
  const ps = drafts.flatMap((d) => (d.score ? [d.p_value, d.score.p_value] : [d.p_value]));
  const adjusted = holm(ps);
  let k = 0;
  const verdict = <T extends { diff: number | null }>(t: T, a: string, b: string) => {
    const p = adjusted[k++];
    const significant = p < ALPHA;
    return { ...t, p_adjusted: p, significant, better: significant ? ((t.diff ?? 0) > 0 ? b : a) : null };
  };
  return drafts.map((d) => {
    const pass = verdict(d, d.a, d.b);
    return { ...pass, score: d.score ? verdict(d.score, d.a, d.b) : null };
  });
}

/** Two cells on the tasks graded in both; null when they differ in neither pass/fail nor score. */
function pairOf(a: JobCellInput, b: JobCellInput): PairDraft | null {
  const matched = matchTasks(a.report.tasks, b.report.tasks).pairs.filter(
    (m): m is [TaskStats, TaskStats] => m[0] !== null && fraction(m[0]) !== null && fraction(m[1]) !== null,
  );
  let onlyA = 0;
  let onlyB = 0;
  for (const [ta, tb] of matched) {
    const pa = taskState(ta) === 'passing';
    const pb = taskState(tb) === 'passing';
    if (pa && !pb) onlyA++;
    if (pb && !pa) onlyB++;
  }
  const d = pairedDifference(matched.map(([ta, tb]) => [fraction(ta) ?? 0, fraction(tb) ?? 0]));
  const score = scoreTestOf(matched);
  if (onlyA + onlyB === 0 && (d.diff ?? 0) === 0 && !score) return null;
  return {
    a: a.id,
    b: b.id,
    n: d.n,
    diff: d.diff,
    ci95: d.ci95,
    only_a: onlyA,
    only_b: onlyB,
    test: 'mcnemar',
    p_value: mcnemarExact(onlyA, onlyB),
    score,
  };
}

/** The sign test of the tasks' mean scores, when scores are more than pass/fail and some differ. */
function scoreTestOf(matched: Array<[TaskStats, TaskStats]>): Unadjusted<JobScoreTest> | null {
  const scored = matched.filter(([ta, tb]) => typeof ta.mean_score === 'number' && typeof tb.mean_score === 'number');
  const graded = (t: TaskStats) => t.mean_score !== fraction(t);
  if (!scored.some(([ta, tb]) => graded(ta) || graded(tb))) return null;
  const pairs = scored.map(([ta, tb]) => [ta.mean_score ?? 0, tb.mean_score ?? 0] as const);
  const higherA = pairs.filter(([x, y]) => x > y).length;
  const higherB = pairs.filter(([x, y]) => y > x).length;
  if (higherA + higherB === 0) return null;
  const d = pairedDifference(pairs);
  return {
    n: d.n,
    diff: d.diff,
    ci95: d.ci95,
    higher_a: higherA,
    higher_b: higherB,
    test: 'sign',
    p_value: signTest(higherA, higherB),
  };
}

function matrixOf(cells: JobCellInput[]): JobMatrixRow[] {
  const rows = new Map<string, JobMatrixRow>();
  cells.forEach((c, i) => {
    for (const t of c.report.tasks) {
      const key = t.input_hash || `id:${t.sample_id}`;
      let row = rows.get(key);
      if (!row) {
        row = {
          sample_id: t.sample_id,
          input_hash: t.input_hash,
          states: cells.map(() => null),
          links: cells.map(() => null),
        };
        rows.set(key, row);
      }
      row.states[i] = taskState(t);
      row.links[i] = trialLink(c, t);
    }
  });
  return [...rows.values()];
}

/** The trial page a matrix cell opens: the task's trial id (file-safe, as its result file is named), not its sample id. */
export function trialLink(c: Pick<JobCellInput, 'run_dir'>, t: Pick<TaskStats, 'task_id'>): string | null {
  return t.task_id ? `${c.run_dir}/report.html#trial=${encodeURIComponent(t.task_id)}` : null;
}
