// One saved result graded again by `benchrig evaluate` (commands/evaluate.ts): what the checks need
// (made once a run, not once a trial), the grading, and whether the graded part changed.
import { join, resolve } from 'node:path';
import type { Benchmark } from '../benchmark/types.ts';
import { gradeTrial } from '../checks/grade.ts';
import { decideStatus, isBenign } from '../checks/status.ts';
import type { GradeModels } from '../checks/types.ts';
import { BenchrigError } from '../errors.ts';
import { loadHooks } from '../trial/hooks.ts';
import { RegradeRecord } from '../trial/regrade-record.ts';
import type { Sample, TrialResult } from '../types.ts';
import { sameJson } from './same-json.ts';

/** Errors that stopped a trial before grading: such a trial was never graded and is not now. */
const NEVER_GRADED = new Set(['sandbox', 'docker_unavailable', 'interrupted', 'model']);

/** What model-backed and custom checks need to grade again (as the run had it), for every result of the run. */
interface Regrading {
  b: Benchmark;
  grade: Pick<GradeModels, 'judge' | 'cache' | 'customChecks'>;
  /** `[run] transcripts` is not "metadata": the judge's calls are transcribed. */
  transcripts: boolean;
  /** A record of the judge's calls, one a result (trial/regrade-record.ts). */
  record: () => RegradeRecord;
}

export async function regradingFor(b: Benchmark, cwd: string): Promise<Regrading> {
  const cfg = b.config;
  const judge = {
    ...cfg.llm,
    ...Object.fromEntries(Object.entries(cfg.judge.llm ?? {}).filter(([, v]) => v !== undefined)),
  };
  const hooks = await loadHooks(b.hooks);
  const transcripts = cfg.run.transcripts !== 'metadata';
  return {
    b,
    grade: {
      judge,
      cache: { mode: cfg.run.llm_cache, dir: join(resolve(cwd, cfg.run.output), '.llm-cache') },
      customChecks: hooks.checks,
    },
    transcripts,
    // A call an agent recorded without its own cost is priced as the run priced it (run/context.ts).
    record: RegradeRecord.maker(
      transcripts,
      { agent: cfg.llm.price, user: cfg.user.llm?.price ?? cfg.llm.price, judge: judge.price },
      judge,
    ),
  };
}

/**
 * One result graded again with the benchmark's checks: checks that need no sandbox run again on
 * the saved replies, events and final state; sandbox checks keep their saved verdicts; a settled
 * `manual` review is kept (the check reads it from `previous`). Errors keep their status.
 */
export async function regradeResult(r: TrialResult, sample: Sample | undefined, g: Regrading): Promise<TrialResult> {
  if (!sample) return r; // the sample left the dataset: its saved verdicts stand
  if (r.error && (NEVER_GRADED.has(r.error.kind) || (r.checks ?? []).length === 0)) return r;
  // The judge's new calls replace its earlier ones in the result's events and transcript.
  const record = g.record();
  const graded = await gradeTrial({
    checks: g.b.checks,
    sample,
    replies: r.replies ?? (r.response ? [r.response] : []),
    events: r.events ?? [],
    finalState: r.final_state ?? {},
    blocked: !!r.blocked,
    artifacts: r.artifacts ?? {},
    skipSandbox: true,
    previous: r.checks ?? [],
    judge: g.grade.judge,
    cache: g.grade.cache,
    customChecks: g.grade.customChecks,
    onEvent: record.onEvent,
    onCall: g.transcripts ? record.onCall : undefined,
  });
  // A judge whose endpoint fails would overwrite its saved verdicts with nothing: evaluate stops instead (exit 3).
  if (graded.outage) throw new BenchrigError('llm', `${r.task_id}: ${graded.outage.message}`);
  const verdicts = graded.verdicts;
  const { status, score } = decideStatus({
    error: r.error,
    verdicts,
    blocked: !!r.blocked,
    blocksAreSuccess: g.b.config.blocks_are_success,
    benign: isBenign(r),
  });
  return record.apply({ ...r, checks: verdicts, artifacts: graded.artifacts, status, score });
}

/** Whether `next` must be written: a verdict, the status, the score or an artifact changed, or the judge was asked again. */
export const regradeChanged = (next: TrialResult, r: TrialResult): boolean =>
  next.events !== r.events ||
  !sameJson(next.status, r.status) ||
  !sameJson(next.score, r.score) ||
  !sameJson(next.checks, r.checks) ||
  !sameJson(next.artifacts, r.artifacts);
