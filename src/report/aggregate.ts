// Build `evaluation_report.json` (docs/reports.md#files) from result files, streaming: each result is read,
// folded into the metrics and the top lists, and dropped.
import { offerSlowest, wouldBeSlowest, type SlowTrial } from './analysis.ts';
import { readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { ERROR_STATUSES, type TrialResult, type TrialStatus } from '../types.ts';
import { MetricsAccumulator } from './metrics.ts';
import { evaluateGate, type GateConfig } from './gate.ts';
import { compareReports } from './compare.ts';
import { resultNamesOf } from './result-layout.ts';
import type { EvaluationReport, TopEntry } from './types.ts';

export interface BuildReportOptions {
  benchmark: EvaluationReport['benchmark'];
  agent: EvaluationReport['agent'];
  run: Omit<EvaluationReport['run'], 'duration_s'>;
  gate?: GateConfig;
  blocksAreSuccess: boolean;
  results: Iterable<TrialResult> | AsyncIterable<TrialResult>;
  /** `--baseline`: the baseline run's report; the report's `comparison` is made against it. */
  baseline?: EvaluationReport | null;
}

const TOP_N = 10;

/** Failures worth reading first: the agent's own failures, then what kept a trial from a verdict. */
const FAILURE_RANK: Partial<Record<TrialStatus, number>> = {
  FAILED: 0,
  TIMEOUT: 1,
  AGENT_ERROR: 2,
  SANDBOX_ERROR: 3,
  MODEL_ERROR: 3,
  UNGRADABLE: 4,
};

/** Why a trial failed: its error for error statuses, else its first failing check, else any clue. */
export function failureReason(r: Pick<TrialResult, 'status' | 'error' | 'checks'>): string {
  const error = r.error ? `${r.error.kind}: ${r.error.message}` : null;
  if (error && ERROR_STATUSES.has(r.status)) return error;
  const failing = r.checks?.find((c) => c.passed === false);
  if (failing) return `${failing.name}: ${failing.reason}`;
  if (error) return error;
  const undecided = r.checks?.find((c) => c.passed === null);
  if (undecided) return `${undecided.name}: ${undecided.reason}`;
  return r.checks?.length ? 'no check produced a verdict' : 'no checks';
}

function successReason(r: TrialResult): string {
  const passing = r.checks?.find((c) => c.passed === true);
  if (r.blocked && !passing) return 'blocked';
  return passing ? `${passing.name}: ${passing.reason}` : 'passed';
}

/** Keeps the best `TOP_N` entries by `key` (ascending) without holding every result. */
class TopList {
  private items: Array<{ key: [number, number, string]; entry: TopEntry }> = [];
  /** `entry` is made only when the key enters (most trials of a large run do not). */
  offer(a: number, b: number, id: string, entry: () => TopEntry): void {
    const last = this.items.length === TOP_N ? this.items[TOP_N - 1].key : null;
    if (last && (a > last[0] || (a === last[0] && (b > last[1] || (b === last[1] && id >= last[2]))))) return;
    this.items.push({ key: [a, b, id], entry: entry() });
    this.items.sort(
      (x, y) => x.key[0] - y.key[0] || x.key[1] - y.key[1] || (x.key[2] < y.key[2] ? -1 : x.key[2] > y.key[2] ? 1 : 0),
    );
    if (this.items.length > TOP_N) this.items.pop();
  }
  entries(): TopEntry[] {
    return this.items.map((i) => i.entry);
  }
}

function durationS(start: string, end: string): number | null {
  const a = Date.parse(start);
  const b = Date.parse(end);
  return Number.isFinite(a) && Number.isFinite(b) ? Math.max(0, (b - a) / 1000) : null;
}

export async function buildReport(opts: BuildReportOptions): Promise<EvaluationReport> {
  const acc = new MetricsAccumulator({ blocksAreSuccess: opts.blocksAreSuccess });
  const failures = new TopList();
  const successes = new TopList();
  const slowest: SlowTrial[] = [];
  for await (const r of opts.results) {
    acc.add(r);
    const time = r.metadata?.execution_time_s;
    if (wouldBeSlowest(slowest, r.task_id, time))
      offerSlowest(slowest, { task_id: r.task_id, status: r.status, execution_time_s: time });
    const rank = FAILURE_RANK[r.status];
    if (rank !== undefined) {
      failures.offer(rank, r.score ?? 0, r.task_id, () => ({
        task_id: r.task_id,
        status: r.status,
        reason: failureReason(r),
      }));
    } else if (r.status === 'PASSED') {
      successes.offer(0, -(r.score ?? 0), r.task_id, () => ({
        task_id: r.task_id,
        status: r.status,
        reason: successReason(r),
      }));
    }
  }
  const { metrics, checks, tasks } = acc.finish();
  const report: EvaluationReport = {
    schema_version: 1,
    benchmark: { ...opts.benchmark },
    agent: { ...opts.agent },
    run: { ...opts.run, duration_s: durationS(opts.run.started_at, opts.run.finished_at) },
    metrics,
    checks,
    tasks,
    gate: evaluateGate(opts.gate, metrics),
    comparison: null,
    top_failures: failures.entries(),
    top_successes: successes.entries(),
    slowest_trials: slowest,
  };
  if (opts.baseline) report.comparison = compareReports(opts.baseline, report);
  return report;
}

/**
 * The names of a run's result files relative to `results/` (`a.json`, or `3f/a.json` in a sharded
 * run: result-layout.ts), in reading order; temp files of atomic writes left out; none without the folder.
 */
export async function resultNames(runDir: string): Promise<string[]> {
  return [...resultNamesOf(runDir)];
}

/** readFileSync's options, made once: a string is copied into a new options object a call. */
const UTF8 = { encoding: 'utf8', flag: 'r' } as const;

/**
 * Every result file of a run (or those `names` of resultNames), each read once, a folder at a time
 * in file-name order, as they are asked for (synchronously: `for await` takes it too). A missing
 * folder yields nothing; a corrupt file throws naming it.
 */
export function* readResults(runDir: string, names?: Iterable<string>): Generator<TrialResult> {
  const dir = join(runDir, 'results') + sep;
  for (const name of names ?? resultNamesOf(runDir)) {
    const path = dir + name; // names are file names or `xy/name` (result-layout.ts): nothing to normalize
    let result: TrialResult;
    try {
      // Read synchronously: a small file's open/stat/read/close each cross to libuv's thread pool
      // when read asynchronously, and that waiting was ~60% of `benchrig evaluate` on 10,000 results.
      result = JSON.parse(readFileSync(path, UTF8)) as TrialResult;
    } catch (err) {
      if (err instanceof SyntaxError) throw new Error(`corrupt result file ${path}: ${err.message}`);
      throw err;
    }
    yield result;
  }
}
