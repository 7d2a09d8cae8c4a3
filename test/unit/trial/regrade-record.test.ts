// `benchrig evaluate`'s record of the judge's new calls (src/trial/regrade-record.ts): they replace
// the judge's earlier ones, and the trial's tokens and cost are counted again from what is left.
import { describe, expect, it } from 'vitest';
import { RegradeRecord } from '../../../src/trial/regrade-record.ts';
import type { TrajectoryEvent, TrialResult } from '../../../src/types.ts';

const call = (role: 'agent' | 'judge', input: number, output: number, cost?: number): TrajectoryEvent => ({
  type: 'llm_call',
  role,
  model: `${role}-model`,
  latency_ms: 5,
  tokens: { input, output },
  ...(cost === undefined ? {} : { cost_usd: cost }),
  step: 0,
  ts: 0,
});

function saved(events: TrajectoryEvent[]): TrialResult {
  return {
    task_id: 't',
    events: events.map((e, i) => ({ ...e, step: i + 1 })),
    metadata: { llm_calls: 2, tokens: { input: 1120, output: 60 }, cost_usd: 0.7, unpriced_models: [] },
  } as unknown as TrialResult;
}

describe('a re-grading record', () => {
  it("counts the trial's tokens and cost again: the agent's calls and the judge's new one, not its old one", () => {
    const r = saved([call('agent', 1000, 40, 0.5), call('agent', 20, 0), call('judge', 100, 20, 0.2)]);
    const record = RegradeRecord.maker(false, { agent: { input: 1000, output: 1000 } })();
    record.onEvent({ ...call('judge', 7, 3, 0.01) });
    const next = record.apply(r);
    expect(next.events.filter((e) => e.type === 'llm_call').map((e) => e.role)).toEqual(['agent', 'agent', 'judge']);
    expect(next.metadata.tokens).toEqual({ input: 1027, output: 43 });
    // 0.5 + the recorded agent call priced as the run prices it (20 input tokens at $1,000 a million) + 0.01
    expect(next.metadata.cost_usd).toBeCloseTo(0.53, 10);
    expect(next.metadata.llm_calls).toBe(2); // the judge's calls are not the agent's
  });

  it('leaves the result as it was when the judge was not asked', () => {
    const r = saved([call('agent', 1000, 40, 0.5), call('judge', 100, 20, 0.2)]);
    expect(RegradeRecord.maker(false, {})().apply(r)).toBe(r);
  });
});
