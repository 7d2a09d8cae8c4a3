// A TrialResult builder: only what a test cares about is spelled out.
import type { TrialResult, TrialStatus } from '../../../src/types.ts';

let seq = 0;

export function trial(
  sampleId: string,
  status: TrialStatus,
  extra: Partial<TrialResult> & { md?: Partial<TrialResult['metadata']> } = {},
): TrialResult {
  const { md, ...rest } = extra;
  seq++;
  return {
    schema_version: 1,
    task_id: `${sampleId}-t${seq}`,
    sample_id: sampleId,
    trial: 1,
    session_id: `sess-${seq}`,
    prompt: 'q',
    response: 'a',
    replies: ['a'],
    blocked: false,
    status,
    stop_reason: 'agent_done',
    score: status === 'PASSED' ? 1 : status === 'FAILED' ? 0 : null,
    checks: [],
    events: [],
    final_state: {},
    artifacts: {},
    metadata: {
      llm_calls: 0,
      user_llm_calls: 0,
      tokens: { input: 0, output: 0 },
      tools_used: {},
      execution_time_s: 1,
      timings_s: { sandbox: 0, agent: 0, grading: 0, cleanup: 0 },
      input_hash: `hash-${sampleId}`,
      ...md,
    },
    error: null,
    trace_id: null,
    started_at: '2024-01-01T00:00:00.000Z',
    finished_at: '2024-01-01T00:00:01.000Z',
    ...rest,
  };
}

/** `n` trials of one sample with the given statuses. */
export function trials(sampleId: string, statuses: TrialStatus[]): TrialResult[] {
  return statuses.map((s, i) => ({ ...trial(sampleId, s), trial: i + 1 }));
}
