// The result of a trial that never returned one: its worker died, was killed, or runTrial threw.
// Same shape as runTrial's results, so the report and `evaluate` treat it like any other.
import { parseTraceparent } from '../telemetry/context.ts';
import { randomBytes } from 'node:crypto';
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { decideStatus } from '../checks/status.ts';
import type { ErrorValue } from '../errors.ts';
import { writeJsonAtomic } from '../report/write.ts';
import type { TrialResult } from '../types.ts';
import type { RunContext, TrialInput } from './types.ts';

export interface FailedExtras {
  /** The trial's container, when it had one. */
  containerId?: string | null;
  /** Events the main side saw before the failure (when they were forwarded). */
  events?: TrialResult['events'];
}

export function failedResult(run: RunContext, input: TrialInput, error: ErrorValue, startedAt: Date, extras: FailedExtras = {}): TrialResult {
  const { status, score } = decideStatus({ error, verdicts: [], blocked: false, blocksAreSuccess: run.benchmark.blocksAreSuccess });
  const finishedAt = new Date();
  return {
    schema_version: 1,
    task_id: input.taskId,
    sample_id: input.sample.id,
    trial: input.trial,
    session_id: `${run.runId}.${input.taskId}.${randomBytes(4).toString('hex')}`,
    prompt: input.sample.input,
    response: '',
    replies: [],
    blocked: false,
    status,
    stop_reason: error.kind === 'timeout' ? 'timeout' : 'error',
    score,
    checks: [],
    events: extras.events ?? [],
    final_state: {},
    artifacts: {},
    metadata: {
      llm_calls: 0,
      user_llm_calls: 0,
      tokens: { input: 0, output: 0 },
      cost_usd: null,
      tools_used: {},
      execution_time_s: (finishedAt.getTime() - startedAt.getTime()) / 1000,
      timings_s: { sandbox: 0, agent: 0, grading: 0, cleanup: 0 },
      sandbox: extras.containerId && run.sandbox ? { image: run.sandbox.image, container: extras.containerId, kept: false } : null,
      input_hash: input.inputHash,
      limit: null,
      sample_metadata: input.sample.metadata,
    },
    error,
    // the worker's spans died with it, but the trial still belongs to the run's trace
    trace_id: run.traceparent ? (parseTraceparent(run.traceparent)?.traceId ?? null) : null,
    started_at: startedAt.toISOString(),
    finished_at: finishedAt.toISOString(),
  };
}

/** Saves it where runTrial would have: results/<task-id>.json (atomically) and a line in its log. */
export async function saveFailedResult(run: RunContext, result: TrialResult): Promise<void> {
  await mkdir(join(run.runDir, 'logs'), { recursive: true });
  await appendFile(join(run.runDir, 'logs', `${result.task_id}.log`), `[error] ${result.error?.kind}: ${result.error?.message}\n`);
  await writeJsonAtomic(join(run.runDir, 'results', `${result.task_id}.json`), result);
}
