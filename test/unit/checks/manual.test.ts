import { describe, expect, it } from 'vitest';
import { gradeTrial } from '../../../src/checks/grade.ts';
import { decideStatus } from '../../../src/checks/status.ts';
import { cfg, sample } from './helpers.ts';

const grade = (previous?: Parameters<typeof gradeTrial>[0]['previous']) =>
  gradeTrial({
    checks: [cfg('manual', { name: 'tone ok' }), cfg('exact')],
    sample: sample({ expected: 'a' }),
    replies: ['a'],
    events: [],
    finalState: {},
    blocked: false,
    artifacts: {},
    previous,
  });
const status = (verdicts: Awaited<ReturnType<typeof grade>>['verdicts']) =>
  decideStatus({ error: null, verdicts, blocked: false, blocksAreSuccess: false }).status;

describe('manual', () => {
  it('never passes by itself: the trial awaits review', async () => {
    const { verdicts } = await grade();
    expect(verdicts[0]).toEqual({
      name: 'tone ok',
      type: 'manual',
      score: 0,
      passed: null,
      reason: 'awaiting review (benchrig review)',
      details: { awaiting_review: true },
    });
    expect(status(verdicts)).toBe('AWAITING_REVIEW');
  });

  it('keeps a settled review on re-grade', async () => {
    const review = { passed: false, reason: 'rude', at: '2024-05-01T10:00:00Z', by: 'ana' };
    const { verdicts } = await grade([
      { name: 'tone ok', type: 'manual', score: 0, passed: false, reason: 'x', details: { review } },
    ]);
    expect(verdicts[0]).toMatchObject({
      passed: false,
      score: 0,
      reason: 'reviewed by ana: fail — rude',
      details: { review },
    });
    expect(status(verdicts)).toBe('FAILED');
    const passed = await grade([
      {
        name: 'tone ok',
        type: 'manual',
        score: 1,
        passed: true,
        reason: '',
        details: { review: { passed: true, reason: 'fine', at: 't' } },
      },
    ]);
    expect(status(passed.verdicts)).toBe('PASSED');
  });

  it('stays open when the previous verdict holds no settled review', async () => {
    const { verdicts } = await grade([
      { name: 'tone ok', type: 'manual', score: 0, passed: null, reason: '', details: { awaiting_review: true } },
    ]);
    expect(status(verdicts)).toBe('AWAITING_REVIEW');
  });
});
