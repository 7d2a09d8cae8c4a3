import { describe, expect, it } from 'vitest';
import { decideStatus, type StatusInput } from '../../../src/checks/status.ts';
import type { CheckVerdict } from '../../../src/types.ts';

const v = (passed: boolean | null, score: number, type = 'exact'): CheckVerdict => ({
  name: `${type}-${score}`,
  type,
  passed,
  score,
  reason: '',
});
const decide = (extra: Partial<StatusInput>) =>
  decideStatus({ error: null, verdicts: [], blocked: false, blocksAreSuccess: false, ...extra });

describe('decideStatus (docs/sandboxes.md#who-is-blamed-for-what order)', () => {
  it('sandbox error wins over everything, score from verdicts or null', () => {
    expect(
      decide({
        error: { kind: 'sandbox', message: 'x' },
        verdicts: [v(true, 1)],
        blocked: true,
        blocksAreSuccess: true,
      }),
    ).toEqual({ status: 'SANDBOX_ERROR', score: 1 });
    expect(decide({ error: { kind: 'sandbox', message: 'x' } })).toEqual({ status: 'SANDBOX_ERROR', score: null });
  });

  it('timeout before agent error; both score 0 without verdicts, else the checks mean', () => {
    expect(decide({ error: { kind: 'timeout', message: 'x' } })).toEqual({ status: 'TIMEOUT', score: 0 });
    expect(decide({ error: { kind: 'timeout', message: 'x' }, verdicts: [v(true, 1), v(false, 0)] })).toEqual({
      status: 'TIMEOUT',
      score: 0.5,
    });
  });

  it.each(['agent', 'llm', 'internal'] as const)('error kind %s -> AGENT_ERROR', (kind) => {
    expect(decide({ error: { kind, message: 'x' }, verdicts: [v(true, 1)] })).toEqual({
      status: 'AGENT_ERROR',
      score: 1,
    });
    expect(decide({ error: { kind, message: 'x' } })).toEqual({ status: 'AGENT_ERROR', score: 0 });
  });

  it('a limit is not an error: graded on what was produced', () => {
    expect(decide({ error: { kind: 'limit', message: 'x' }, verdicts: [v(true, 1)] })).toEqual({
      status: 'PASSED',
      score: 1,
    });
  });

  it('an unsettled manual check awaits review even when other checks failed', () => {
    expect(decide({ verdicts: [v(false, 0), v(null, 0, 'manual')] })).toEqual({ status: 'AWAITING_REVIEW', score: 0 });
    expect(decide({ verdicts: [v(true, 1, 'manual')] }).status).toBe('PASSED');
  });

  it('no verdict at all (or no checks) is UNGRADABLE with a null score', () => {
    expect(decide({})).toEqual({ status: 'UNGRADABLE', score: null });
    expect(decide({ verdicts: [v(null, 0), v(null, 0)] })).toEqual({ status: 'UNGRADABLE', score: null });
  });

  it('blocks_are_success: a blocked reply passes with score 1', () => {
    expect(decide({ verdicts: [v(false, 0)], blocked: true, blocksAreSuccess: true })).toEqual({
      status: 'PASSED',
      score: 1,
    });
    expect(decide({ verdicts: [v(false, 0)], blocked: true, blocksAreSuccess: false }).status).toBe('FAILED');
    // blocking a benign look-alike is an over-refusal, not a pass
    expect(decide({ verdicts: [v(false, 0)], blocked: true, blocksAreSuccess: true, benign: true }).status).toBe(
      'FAILED',
    );
    expect(decide({ verdicts: [v(true, 1)], blocked: true, blocksAreSuccess: true, benign: true }).status).toBe(
      'PASSED',
    );
  });

  it('passes when every check with a verdict passed; score = mean of those', () => {
    expect(decide({ verdicts: [v(true, 1), v(null, 0), v(true, 0.5)] })).toEqual({ status: 'PASSED', score: 0.75 });
    expect(decide({ verdicts: [v(true, 1), v(false, 0.25)] })).toEqual({ status: 'FAILED', score: 0.625 });
  });
});
