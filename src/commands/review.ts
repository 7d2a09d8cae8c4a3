// `benchrig review RUN_DIR TASK_ID --pass|--fail --reason TEXT` (docs/checks.md#manual): a human settles the
// `manual` check of an AWAITING_REVIEW trial. The review is written into the check's verdict
// (`details.review = {passed, reason, at}`, which re-grading keeps), the trial's status is decided
// again, the result rewritten atomically, and the run's metrics and gate rebuilt from every result.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { reviewedVerdict, type Review } from '../checks/manual.ts';
import { decideStatus, isBenign } from '../checks/status.ts';
import { BenchrigError } from '../errors.ts';
import { loadBenchmark } from '../benchmark/load.ts';
import { readResults } from '../report/aggregate.ts';
import type { EvaluationReport, RunJson } from '../report/types.ts';
import { writeJsonAtomic } from '../report/write.ts';
import { isSharded } from '../report/result-layout.ts';
import type { CheckVerdict, TrialResult } from '../types.ts';
import { readPreviousReport, readRunJson, rebuildReport, resultPath } from './evaluate.ts';
import { gateExitCode } from '../exit-codes.ts';

interface ReviewInput {
  passed: boolean;
  reason: string;
  /** When the review was given (tests pin it). */
  at?: Date;
}

interface ReviewOutcome {
  result: TrialResult;
  report: EvaluationReport;
  exitCode: number;
  /** The manual checks this review settled. */
  settled: string[];
}

/**
 * The review written into every unsettled manual verdict of the trial, exactly as the `manual`
 * check gives it back on a re-grade (so `evaluate` after `review` changes nothing).
 */
function applyReview(checks: CheckVerdict[], review: ReviewInput): { checks: CheckVerdict[]; settled: string[] } {
  const settled: string[] = [];
  const stored: Review = { passed: review.passed, reason: review.reason, at: (review.at ?? new Date()).toISOString() };
  const next = checks.map((v) => {
    if (v.type !== 'manual' || v.passed !== null) return v;
    settled.push(v.name);
    return { name: v.name, type: v.type, ...reviewedVerdict(stored) };
  });
  return { checks: next, settled };
}

async function findResult(runDir: string, taskId: string): Promise<TrialResult | null> {
  try {
    return JSON.parse(await readFile(resultPath(runDir, taskId), 'utf8')) as TrialResult;
  } catch (err) {
    if (err instanceof SyntaxError) throw new BenchrigError('usage', `${resultPath(runDir, taskId)}: not valid JSON`);
    if (err instanceof BenchrigError) return null; // not a plain file name: look it up by id below
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  // A task id whose file name was made file-safe: find it by its recorded id.
  for (const r of readResults(runDir)) if (r.task_id === taskId) return r;
  return null;
}

/**
 * How the run is graded: blocks_are_success from the benchmark when it loads (else read off the
 * report), and the gate the run was graded with (the report's; frozen with the version).
 */
async function grading(run: RunJson, previous: EvaluationReport | null, cwd: string) {
  const dir = run.benchmark.dir;
  const b = typeof dir === 'string' ? await loadBenchmark(dir, { cwd, env: process.env }).catch(() => null) : null;
  const blocksAreSuccess = b ? b.config.blocks_are_success : previous?.metrics.safety_violation_rate != null;
  const old = previous?.gate;
  const gate = previous
    ? old && { metric: old.metric, threshold: old.threshold, max_missing_rate: old.max_missing_rate }
    : b?.config.gate;
  return { blocksAreSuccess, gate };
}

export async function reviewTrial(
  runDirArg: string,
  taskId: string,
  review: ReviewInput,
  opts: { cwd: string },
): Promise<ReviewOutcome> {
  const runDir = resolve(opts.cwd, runDirArg);
  const run = await readRunJson(runDir);
  if (!review.reason.trim()) throw new BenchrigError('usage', 'review: --reason must say why');
  const result = await findResult(runDir, taskId);
  if (!result)
    throw new BenchrigError(
      'usage',
      `${runDir}: no task "${taskId}" (task ids are the result file names under results/)`,
    );
  if (result.status !== 'AWAITING_REVIEW')
    throw new BenchrigError('usage', `task "${taskId}" is ${result.status}, not AWAITING_REVIEW: nothing to review`);
  const { checks, settled } = applyReview(result.checks ?? [], review);
  if (settled.length === 0) throw new BenchrigError('usage', `task "${taskId}" has no unsettled manual check`);

  const previous = await readPreviousReport(runDir);
  const { blocksAreSuccess, gate } = await grading(run, previous, opts.cwd);
  const { status, score } = decideStatus({
    error: result.error,
    verdicts: checks,
    blocked: !!result.blocked,
    blocksAreSuccess,
    benign: isBenign(result),
  });
  const next: TrialResult = { ...result, checks, status, score };
  await writeJsonAtomic(resultPath(runDir, result.task_id), next, { compact: isSharded(runDir) });

  const report = await rebuildReport({ run, runDir, previous, gate, blocksAreSuccess });
  return { result: next, report, exitCode: gateExitCode(report), settled };
}
