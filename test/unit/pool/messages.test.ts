// What of a trial's result crosses back to the main side (pool/messages.ts forMainSide).
import { describe, expect, it } from 'vitest';
import { forMainSide } from '../../../src/pool/messages.ts';
import type { TrialResult } from '../../../src/types.ts';

const result: TrialResult = {
  schema_version: 1,
  task_id: 's1#1',
  sample_id: 's1',
  trial: 1,
  session_id: 'sess',
  prompt: 'p',
  response: 'r',
  replies: ['r'],
  blocked: false,
  status: 'PASSED',
  stop_reason: 'agent_done',
  score: 1,
  checks: [{ name: 'c', type: 'contains', score: 1, passed: true, reason: 'ok' }] as TrialResult['checks'],
  events: [{ type: 'log', level: 'info', message: 'hi', t: 0, seq: 0 }] as unknown as TrialResult['events'],
  final_state: { k: 1 },
  artifacts: { a: 1 },
  metadata: {
    llm_calls: 1,
    user_llm_calls: 0,
    tokens: { input: 1, output: 1 },
    tools_used: {},
    execution_time_s: 0.1,
    timings_s: { sandbox: 0, agent: 0.1, grading: 0, cleanup: 0 },
    input_hash: 'h',
    sample_metadata: { big: 'x' },
  },
  error: null,
  trace_id: null,
  started_at: '2026-01-01T00:00:00.000Z',
  finished_at: '2026-01-01T00:00:01.000Z',
};

describe('forMainSide', () => {
  it('keeps status, score, error, checks and metadata; drops the trajectory, the texts and the sample metadata', () => {
    const summary = forMainSide(result);
    for (const key of ['prompt', 'response', 'replies', 'events', 'final_state', 'artifacts'])
      expect(summary).not.toHaveProperty(key);
    expect(summary.metadata).not.toHaveProperty('sample_metadata');
    expect(summary).toMatchObject({ task_id: 's1#1', status: 'PASSED', score: 1, error: null, checks: result.checks });
    expect(summary.metadata.execution_time_s).toBe(0.1);
    expect(result.metadata.sample_metadata).toEqual({ big: 'x' }); // the saved result is untouched
  });
});
