// The tasks × runs matrix of `benchrig compare A B [C …] --format html`. Tasks are matched across
// runs by input hash exactly as `compare` does (matchTasks), each run against the rows so far, so
// a task renamed between runs stays one row. Pure: reports and trial lists in, matrix out.
import { basename } from 'node:path';
import { gateText } from './html.ts';
import { matchTasks, taskState, type TaskState } from './compare.ts';
import { agentModulesNote, checkRates } from './compare-checks.ts';
import { pairedDifference, type PairedDiff } from './paired.ts';
import { runNames } from './run-names.ts';
import type { EvaluationReport, TaskStats } from './types.ts';

interface MatrixCell {
  state: TaskState;
  passed: number;
  gradable: number;
  trials: number;
  statuses: TaskStats['statuses'];
  /** The sum of its trials' cost in this run; null when none has one. */
  cost_usd: number | null;
  /** This run's trials of the task, in task-id order: what a click opens. */
  task_ids: string[];
}

export interface MatrixRow {
  input_hash: string;
  /** The sample id in the first run that has the task. */
  sample_id: string;
  /** Sample ids when runs name the task differently. */
  names: string[];
  cells: Array<MatrixCell | null>;
  /** Relative to the first run (the baseline): passing there, failing in a later run. */
  regression: boolean;
  /** Failing or unanswered in the baseline, passing in a later run. */
  fixed: boolean;
  /** Not the same state (absent counts) in every run. */
  differing: boolean;
}

export interface MatrixRun {
  /** What names the run on the page (run-names.ts): its --label, its agent id, or a suffix of its id. */
  label: string;
  /** `run --note`. */
  note: string | null;
  run_id: string;
  dir: string;
  agent: string;
  /** The agent module and its sha256; null for a built-in agent or an older run. */
  agent_module: string | null;
  agent_sha256: string | null;
  benchmark: string;
  version: string;
  started_at: string;
  status: string;
  trials_per_task: number;
  n_trials: number;
  n_passed: number;
  n_gradable: number;
  pass_rate: number | null;
  pass_rate_ci95: [number, number] | null;
  cost_usd: number | null;
  tokens: { input: number; output: number };
  duration_s: number | null;
  time_p50_s: number | null;
  gate: string;
}

export interface Matrix {
  runs: MatrixRun[];
  rows: MatrixRow[];
  /** Run i (i ≥ 1) against run 0, paired over tasks both graded; diffs[0] is null. */
  diffs: Array<PairedDiff | null>;
  /** What makes the runs less comparable (other benchmarks, versions, agents); empty when nothing. */
  warnings: string[];
  /** Each check's pass rate in every run, matched by name. */
  checks: Array<{ name: string; type: string; rates: Array<number | null> }>;
}

interface MatrixInput {
  report: EvaluationReport;
  /** task_id and sample_id of every trial of the run. */
  trials: Array<{ task_id: string; sample_id: string }>;
}

const runOf = (r: EvaluationReport, label: string): MatrixRun => ({
  label,
  note: r.run.note ?? null,
  run_id: r.run.id,
  dir: r.run.dir,
  agent: r.agent.id,
  agent_module: r.agent.module ?? null,
  agent_sha256: r.agent.sha256 ?? null,
  benchmark: r.benchmark.name,
  version: r.benchmark.version,
  started_at: r.run.started_at,
  status: r.run.status,
  trials_per_task: r.run.trials,
  n_trials: r.metrics.n_trials,
  n_passed: r.metrics.n_passed,
  n_gradable: r.metrics.n_gradable,
  pass_rate: r.metrics.pass_rate,
  pass_rate_ci95: r.metrics.pass_rate_ci95,
  cost_usd: r.metrics.cost_usd,
  tokens: r.metrics.tokens,
  duration_s: r.run.duration_s,
  time_p50_s: r.metrics.execution_time_s.p50,
  gate: gateText(r.gate),
});

export function buildMatrix(inputs: MatrixInput[]): Matrix {
  const reports = inputs.map((x) => x.report);
  const names = runNames(
    reports.map((r) => ({ id: r.run.id, label: r.run.label, agent: r.agent.id, folder: basename(r.run.dir) })),
  );
  const rows: MatrixRow[] = [];
  const rowOf = new Map<TaskStats, number>(); // the latest TaskStats seen for a row → its index
  inputs.forEach((input, runIndex) => {
    const bySample = new Map<string, string[]>();
    for (const t of input.trials) {
      const list = bySample.get(t.sample_id);
      if (list) list.push(t.task_id);
      else bySample.set(t.sample_id, [t.task_id]);
    }
    const reps = [...rowOf.keys()];
    const { pairs } = matchTasks(reps, input.report.tasks);
    for (const [rep, task] of pairs) {
      // A matched task continues the row of the earlier run's task it matched (a key of rowOf).
      let index = rep ? rowOf.get(rep) : undefined;
      if (rep && index !== undefined) rowOf.delete(rep);
      else {
        if (rep) throw new Error(`internal: task ${rep.sample_id} matched, but not from an earlier run`);
        index = rows.length;
        rows.push({
          input_hash: task.input_hash,
          sample_id: task.sample_id,
          names: [],
          cells: inputs.map(() => null),
          regression: false,
          fixed: false,
          differing: false,
        });
      }
      rowOf.set(task, index);
      const row = rows[index];
      if (!row.names.includes(task.sample_id)) row.names.push(task.sample_id);
      row.cells[runIndex] = {
        state: taskState(task),
        passed: task.passed,
        gradable: task.gradable,
        trials: task.trials,
        statuses: { ...task.statuses },
        cost_usd: task.cost_usd ?? null,
        task_ids: (bySample.get(task.sample_id) ?? []).sort(),
      };
    }
  });
  for (const row of rows) {
    const base = row.cells[0]?.state ?? 'absent';
    const later = row.cells.slice(1).map((c) => c?.state ?? 'absent');
    row.regression = base === 'passing' && later.includes('failing');
    row.fixed = (base === 'failing' || base === 'unanswered') && later.includes('passing');
    row.differing = later.some((s) => s !== base);
  }
  const diffs = inputs.map((_, i) => {
    if (i === 0) return null;
    const pairs: Array<[number, number]> = [];
    for (const row of rows) {
      const a = row.cells[0];
      const b = row.cells[i];
      if (a && b && a.gradable > 0 && b.gradable > 0) pairs.push([a.passed / a.gradable, b.passed / b.gradable]);
    }
    return pairedDifference(pairs);
  });
  const warnings: string[] = [];
  const benchmarks = [...new Set(reports.map((r) => r.benchmark.name))];
  if (benchmarks.length > 1) warnings.push(`different benchmarks: ${benchmarks.map((b) => `"${b}"`).join(', ')}`);
  const versions = [...new Set(reports.map((r) => r.benchmark.version))];
  if (versions.length > 1)
    warnings.push(
      `benchmark versions differ (${versions.join(', ')}): checks, limits or samples changed, so the numbers are not strictly comparable`,
    );
  const modules = agentModulesNote(reports);
  if (modules) warnings.push(modules);
  const checks = checkRates(reports.map((r) => r.checks));
  return { runs: reports.map((r, i) => runOf(r, names[i])), rows, diffs, warnings, checks };
}
