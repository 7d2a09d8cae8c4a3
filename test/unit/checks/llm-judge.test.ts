import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { judgeSpec, llmJudge, verdictFromReply } from '../../../src/checks/llm-judge.ts';
import { ModelEndpointError } from '../../../src/errors.ts';
import type { LlmConfig } from '../../../src/config/schema.ts';
import type { NewEvent } from '../../../src/types.ts';
import { startModelServer, type ModelServer } from '../../support/model-server.ts';
import { cfg, input, sample } from './helpers.ts';

const advice = (extra: Record<string, unknown> = {}) =>
  cfg('llm_judge', {
    name: 'gives sound advice',
    score_range: [1, 5],
    thresholds: { pass_score: 3.5 },
    criteria: {
      correct: { weight: 2, description: 'Is the advice correct?' },
      disclaimer_present: {
        weight: 0.5,
        critical_min: 4,
        description: 'Does the reply say it is not financial advice?',
      },
    },
    ...extra,
  });
const reply = (scores: Record<string, unknown>) =>
  JSON.stringify(Object.fromEntries(Object.entries(scores).map(([k, s]) => [k, { score: s, reasoning: `why ${k}` }])));

describe('llm_judge verdict (hand-computed)', () => {
  it('takes the weighted average and honours floors, with the reason of docs/checks.md#llm_judge', () => {
    // (2·4 + 0.5·3) / 2.5 = 3.8 ≥ 3.5, but disclaimer_present 3 < floor 4
    const v = verdictFromReply(judgeSpec(advice()), reply({ correct: 4, disclaimer_present: 3 }));
    expect(v.passed).toBe(false);
    expect(v.score).toBeCloseTo((3.8 - 1) / 4, 12);
    expect(v.reason).toBe(
      'scored 3.80 of 5, needs 3.5; below the floor on disclaimer_present. correct 4: why correct; disclaimer_present 3: why disclaimer_present',
    );
    expect(v.details).toMatchObject({
      raw_scores: { correct: 4, disclaimer_present: 3 },
      weighted_score: 3.8,
      pass_score: 3.5,
      broken_floors: ['disclaimer_present'],
    });
  });

  it('passes above the pass score with the reasoning in the reason too', () => {
    const v = verdictFromReply(judgeSpec(advice()), reply({ correct: 4, disclaimer_present: 4 }));
    expect(v).toMatchObject({ passed: true, score: 0.75 });
    expect(v.reason).toMatch(/^scored 4\.00 of 5, needs 3\.5\. correct 4: why correct/);
  });

  it('defaults pass_score to three quarters up the scale', () => {
    const base = { criteria: { a: { description: 'A' } } };
    expect(judgeSpec(cfg('llm_judge', base)).passScore).toBe(4);
    expect(judgeSpec(cfg('llm_judge', { ...base, score_range: [0, 10] })).passScore).toBe(7.5);
    const spec = judgeSpec(cfg('llm_judge', base));
    expect(verdictFromReply(spec, reply({ a: 3.99 })).passed).toBe(false);
    expect(verdictFromReply(spec, reply({ a: 4 })).passed).toBe(true);
  });

  it('scores and shows a weight-0 criterion without counting it', () => {
    const spec = judgeSpec(
      cfg('llm_judge', { criteria: { a: { description: 'A' }, style: { description: 'S', weight: 0 } } }),
    );
    const v = verdictFromReply(spec, reply({ a: 5, style: 1 }));
    expect(v).toMatchObject({ passed: true, score: 1, details: { scores: { a: 5, style: 1 }, weighted_score: 5 } });
    expect(v.reason).toContain('style 1: why style');
  });

  it('clamps out-of-range scores before averaging', () => {
    const v = verdictFromReply(judgeSpec(advice()), reply({ correct: 9, disclaimer_present: -2 }));
    // clamped to 5 and 1: (10 + 0.5) / 2.5 = 4.2; floor broken on 1 < 4
    expect(v.details).toMatchObject({
      raw_scores: { correct: 9, disclaimer_present: -2 },
      scores: { correct: 5, disclaimer_present: 1 },
      weighted_score: 4.2,
      clamped: ['correct', 'disclaimer_present'],
    });
    expect(v.passed).toBe(false);
  });

  it('is ungradable on a missing or non-numeric criterion score; fails a reply with no JSON at all', () => {
    const spec = judgeSpec(advice());
    const partial = reply({ correct: 4 });
    expect(verdictFromReply(spec, partial)).toEqual({
      score: 0,
      passed: null,
      reason: 'the judge gave no score for disclaimer_present',
      details: { judge_reply: partial },
    });
    expect(verdictFromReply(spec, reply({ correct: 'great', disclaimer_present: 4 }))).toMatchObject({
      passed: null,
      reason: 'the judge gave a non-numeric score for correct',
    });
    expect(verdictFromReply(spec, reply({ correct: 4, disclaimer_present: null }))).toMatchObject({
      passed: null,
      reason: 'the judge gave no score for disclaimer_present',
    });
    // The graded reply is in the judge's prompt: steering the judge off JSON altogether must not leave the check ungraded.
    expect(verdictFromReply(spec, 'I would rate it highly.')).toMatchObject({
      passed: false,
      score: 0,
      reason: expect.stringMatching(/no JSON object.*\(graded as a failure\)$/),
    });
    expect(
      verdictFromReply(spec, 'Sure:\n```json\n' + reply({ correct: '5', disclaimer_present: 5 }) + '\n```').passed,
    ).toBe(true);
  });
});

describe('llm_judge validation at load', () => {
  const bad = (extra: Record<string, unknown>) => () =>
    judgeSpec(cfg('llm_judge', { criteria: { a: { description: 'A' } }, ...extra }));
  it('refuses bad tables with a message naming the key', () => {
    expect(() => judgeSpec(cfg('llm_judge'))).toThrow(/criteria must name at least one/);
    expect(bad({ criteria: { a: { description: 'A', weight: -1 } } })).toThrow(
      /criteria\.a\.weight must be a number >= 0/,
    );
    expect(bad({ criteria: { a: { description: 'A', weight: 0 } } })).toThrow(/every criterion has weight 0/);
    expect(bad({ criteria: { a: {} } })).toThrow(/criteria\.a\.description/);
    expect(bad({ criteria: { a: { description: 'A', critical: 3 } } })).toThrow(/unknown key critical/);
    expect(bad({ score_range: [5, 1] })).toThrow(/score_range/);
    expect(bad({ score_range: [1] })).toThrow(/score_range/);
    expect(bad({ criteria: { a: { description: 'A', critical_min: 7 } } })).toThrow(
      /critical_min must be a number within score_range \[1, 5\]/,
    );
    expect(bad({ thresholds: { pass_score: 6 } })).toThrow(/pass_score/);
    expect(bad({ thresholds: { pass: 3 } })).toThrow(/unknown key pass/);
  });
});

describe('llm_judge against a scripted model', () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server.close());
  beforeEach(() => server.requests.splice(0));
  const judge = (url: string, retries = 0): LlmConfig => ({
    base_url: url,
    api_key: 'sk-judge-secret',
    model: 'judge-model',
    max_retries: retries,
    timeout_s: 5,
  });
  const grade = (
    events: NewEvent[],
    extra: Record<string, unknown> = {},
    expectation?: unknown,
    url = server.url,
    retries = 0,
  ) =>
    llmJudge.run(
      input(advice(extra), 'Buy index funds. This is not financial advice.', expectation, {
        sample: sample({ input: 'How should I invest 1000 dollars?' }),
        judge: judge(url, retries),
        onEvent: (e) => events.push(e),
      }),
    );

  it('sends question, response, rubric and every criterion, and grades the valid reply', async () => {
    server.setScript([{ content: reply({ correct: 5, disclaimer_present: 5 }) }]);
    const events: NewEvent[] = [];
    const v = await grade(events, {}, 'Mentions diversification.');
    expect(v).toMatchObject({ passed: true, score: 1 });
    const sent = server.requests[0].body.messages.map((m: { content: string }) => m.content).join('\n');
    for (const part of [
      'How should I invest 1000 dollars?',
      'Buy index funds.',
      'Mentions diversification.',
      'correct: Is the advice correct?',
      'disclaimer_present: Does the reply say',
      '"score"',
      '"reasoning"',
    ])
      expect(sent).toContain(part);
    expect(server.requests[0].body.model).toBe('judge-model');
    expect(events).toEqual([expect.objectContaining({ type: 'llm_call', role: 'judge', model: 'judge-model' })]);
  });

  it('uses the check model when set and leaves out the rubric when there is none', async () => {
    server.setScript([{ content: reply({ correct: 2, disclaimer_present: 5 }) }]);
    const v = await grade([], { model: 'bigger-judge' });
    expect(v.passed).toBe(false); // (4 + 2.5) / 2.5 = 2.6 < 3.5
    expect(server.requests[0].body.model).toBe('bigger-judge');
    expect(JSON.stringify(server.requests[0].body.messages)).not.toContain('## Rubric');
  });

  it('is ungradable on a partial or non-numeric reply, and fails a non-JSON reply, of a judge that answered', async () => {
    server.setScript([
      { content: reply({ correct: 5 }) },
      { content: reply({ correct: 'five', disclaimer_present: 5 }) },
      { content: 'Looks good to me!' },
    ]);
    expect(await grade([])).toMatchObject({ passed: null, reason: 'the judge gave no score for disclaimer_present' });
    expect(await grade([])).toMatchObject({ passed: null, reason: 'the judge gave a non-numeric score for correct' });
    const v = await grade([]);
    expect(v).toMatchObject({ passed: false, score: 0 });
    expect(v.reason).toMatch(/no JSON object/);
  });

  it('clamps an out-of-range reply from the model', async () => {
    server.setScript([{ content: reply({ correct: 7, disclaimer_present: 4 }) }]);
    const v = await grade([]);
    expect(v).toMatchObject({ passed: true, details: { raw_scores: { correct: 7 }, scores: { correct: 5 } } });
  });

  it('a judge whose endpoint keeps failing after retries throws the outage for grade.ts to tell the trial; the key never shows', async () => {
    server.setScript([{ status: 500 }, { status: 503 }]);
    const events: NewEvent[] = [];
    const err: unknown = await Promise.resolve()
      .then(() => grade(events, {}, undefined, server.url, 1))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelEndpointError);
    expect((err as Error).message).toMatch(/^judge model judge-model failed after 2 attempts: HTTP 503/);
    expect(server.requests).toHaveLength(2);
    expect(events).toEqual([expect.objectContaining({ role: 'judge', error: expect.stringContaining('503') })]);
    expect(JSON.stringify([(err as Error).message, events])).not.toContain('sk-judge-secret');
  });

  it('is ungradable, never failed, when the judge fails for a reason of its call (a 400)', async () => {
    server.setScript([{ status: 400, message: 'prompt too long' }]);
    const v = await grade([], {}, undefined, server.url, 1);
    expect(v.passed).toBeNull();
    expect(v.reason).toMatch(
      /^judge unavailable: judge model judge-model failed after 1 attempt: HTTP 400: prompt too long/,
    );
  });

  it('is ungradable without a judge configuration', async () => {
    const v = await llmJudge.run(input(advice(), 'x'));
    expect(v).toMatchObject({ passed: null, reason: 'no judge model configured ([judge.llm])' });
  });
});
