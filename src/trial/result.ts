// The result file of a trial (docs/reports.md#files), built the same way whether the trial ran to its end or
// its worker died under it, so the report and `evaluate` treat both alike.
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { decideStatus } from '../checks/status.ts';
import type { ErrorValue } from '../errors.ts';
import { isSharded, logFile, resultFile } from '../report/result-layout.ts';
import { writeJsonAtomic } from '../report/write.ts';
import { parseTraceparent } from '../telemetry/context.ts';
import type { StopReason, TrialResult } from '../types.ts';
import type { Graded } from './grading.ts';
import { sandboxSpecOf } from './per-trial.ts';
import { runScrubber } from './scrub.ts';
import { sessionIdOf } from './session-id.ts';
import type { RunContext, TrialInput } from './types.ts';

interface ResultParts extends Graded {
  sessionId: string;
  replies: string[];
  blocked: boolean;
  stopReason: StopReason | undefined;
  events: TrialResult['events'];
  /** The trial's model calls (docs/reports.md#transcripts); absent with transcripts off or no call. */
  transcript?: TrialResult['transcript'];
  metadata: Pick<
    TrialResult['metadata'],
    | 'llm_calls'
    | 'user_llm_calls'
    | 'tokens'
    | 'cost_usd'
    | 'unpriced_models'
    | 'tools_used'
    | 'timings_s'
    | 'sandbox'
    | 'limit'
  >;
  error: ErrorValue | null;
  traceId: string | null;
  startedAt: Date;
  executionTimeS: number;
}

export function resultOf(run: RunContext, input: TrialInput, p: ResultParts): TrialResult {
  const { status, score } = decideStatus({
    error: p.error,
    verdicts: p.verdicts,
    blocked: p.blocked,
    blocksAreSuccess: run.benchmark.blocksAreSuccess,
    benign: input.sample.metadata.benign === true,
  });
  return {
    schema_version: 1,
    task_id: input.taskId,
    sample_id: input.sample.id,
    trial: input.trial,
    session_id: p.sessionId,
    prompt: input.sample.input,
    response: p.replies.at(-1) ?? '',
    replies: p.replies,
    blocked: p.blocked,
    status,
    stop_reason: p.error ? (p.error.kind === 'timeout' ? 'timeout' : 'error') : (p.stopReason ?? 'error'),
    score,
    checks: p.verdicts,
    events: p.events,
    ...(p.transcript ? { transcript: p.transcript } : {}),
    final_state: p.finalState,
    artifacts: p.artifacts,
    ...p.fields,
    metadata: {
      ...p.metadata,
      execution_time_s: p.executionTimeS,
      input_hash: input.inputHash,
      sample_metadata: input.sample.metadata,
    },
    error: p.error,
    trace_id: p.traceId,
    started_at: p.startedAt.toISOString(),
    finished_at: new Date().toISOString(),
  };
}

interface FailedExtras {
  /** The trial's container, when it had one. */
  containerId?: string | null;
  /** Events the main side saw before the failure (when they were forwarded). */
  events?: TrialResult['events'];
}

/** The result of a trial that never returned one: its worker died, was killed, or runTrial threw. */
export function failedResult(
  run: RunContext,
  input: TrialInput,
  error: ErrorValue,
  startedAt: Date,
  extras: FailedExtras = {},
): TrialResult {
  const spec = extras.containerId ? sandboxSpecOf(run, input) : null;
  return resultOf(run, input, {
    sessionId: sessionIdOf(run.runId, input.taskId),
    replies: [],
    blocked: false,
    stopReason: undefined,
    verdicts: [],
    artifacts: {},
    finalState: {},
    events: extras.events ?? [],
    metadata: {
      llm_calls: 0,
      user_llm_calls: 0,
      tokens: { input: 0, output: 0 },
      cost_usd: null,
      tools_used: {},
      timings_s: { sandbox: 0, agent: 0, grading: 0, cleanup: 0 },
      sandbox: extras.containerId && spec ? { image: spec.image, container: extras.containerId, kept: false } : null,
      limit: null,
    },
    error,
    // the worker's spans died with it, but the trial still belongs to the run's trace
    traceId: run.traceparent ? (parseTraceparent(run.traceparent)?.traceId ?? null) : null,
    startedAt,
    executionTimeS: (Date.now() - startedAt.getTime()) / 1000,
  });
}

/** Where a trial's result is saved: `<run>/results/[<xy>/]<task-id>.json` (report/result-layout.ts). */
export { resultFile };

/** Saves it where runTrial would have: its result file (atomically) and a line in its log. */
export async function saveFailedResult(run: RunContext, failed: TrialResult): Promise<void> {
  const result = runScrubber(run).value(failed);
  const log = logFile(run.runDir, result.task_id);
  await mkdir(dirname(log), { recursive: true });
  await appendFile(log, `[error] ${result.error?.kind}: ${result.error?.message}\n`);
  await writeJsonAtomic(resultFile(run.runDir, result.task_id), result, { compact: isSharded(run.runDir) });
}
