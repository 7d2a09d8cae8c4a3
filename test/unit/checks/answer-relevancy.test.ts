// answer_relevancy (docs/checks.md#retrieval): the similarity engine between the reply and the
// sample's input, or a judge model under llm_judge's rules, against hand-computed values.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerRelevancy } from '../../../src/checks/answer-relevancy.ts';
import type { LlmConfig } from '../../../src/config/schema.ts';
import { ModelEndpointError } from '../../../src/errors.ts';
import { startModelServer, type ModelServer } from '../../support/model-server.ts';
import { cfg, input, sample, validate } from './helpers.ts';

const run = (reply: string, question: string, check: Record<string, unknown> = {}, judge?: LlmConfig) =>
  answerRelevancy.run(
    input(cfg('answer_relevancy', check), reply, undefined, { sample: sample({ input: question }), judge }),
  );

describe('answer_relevancy (tfidf)', () => {
  it('scores the TF-IDF cosine of reply and input, passing at the threshold (default 0.2)', async () => {
    // "a b" vs "a c": idf over the two texts, cos = 1 / (1 + (ln 1.5 + 1)²) = 0.3363
    const cos = 1 / (1 + (Math.log(1.5) + 1) ** 2);
    const v = await run('a b', 'a c');
    expect(v.score).toBeCloseTo(cos, 10);
    expect(v).toMatchObject({
      passed: true,
      reason: 'relevancy to the input 0.34 >= 0.2 (tfidf)',
      details: { threshold: 0.2, backend: 'tfidf' },
    });
    expect(await run('a b', 'a c', { threshold: 0.34 })).toMatchObject({ passed: false });
    expect(await run('Paris is the capital.', 'paris IS the capital')).toMatchObject({ score: 1, passed: true });
    expect(await run('bananas', 'What is the capital of France?')).toMatchObject({ score: 0, passed: false });
  });

  it('an empty reply fails without asking anything; unicode words count as words', async () => {
    expect(await run('   ', 'question')).toEqual({
      score: 0,
      passed: false,
      reason: 'the reply is empty',
      details: { similarity: 0 },
    });
    expect(await run('Über straße', 'über STRASSE straße')).toMatchObject({ passed: true });
  });

  it('refuses keys of the other mode at load', () => {
    const bad = (extra: Record<string, unknown>) => () => validate(answerRelevancy, cfg('answer_relevancy', extra));
    expect(bad({ threshold: 1.5 })).toThrow(/threshold must be between 0 and 1/);
    expect(bad({ backend: 'bm25' })).toThrow(/backend/);
    expect(bad({ score_range: [1, 5] })).toThrow(/score_range applies with judge = true only/);
    expect(bad({ judge: true, threshold: 0.5 })).toThrow(/threshold does not apply with judge = true/);
    expect(bad({ judge: true, score_range: [5, 1] })).toThrow(/score_range must be/);
    expect(bad({ judge: 'yes' })).toThrow(/judge must be true or false/);
    expect(bad({ criteria: { x: { description: 'y' } } })).toThrow(/own criterion/);
    expect(bad({ judge: true, thresholds: { pass_score: 3 } })).not.toThrow();
  });
});

describe('answer_relevancy (judge = true)', () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server.close());
  const judge = (url: string): LlmConfig => ({
    base_url: url,
    api_key: 'sk-test',
    model: 'judge-m',
    max_retries: 0,
    timeout_s: 5,
  });
  const reply = (score: unknown) => JSON.stringify({ relevancy: { score, reasoning: 'on topic' } });

  it('sends the question and the reply, and works the verdict out as llm_judge does (pass at 4 of 1–5)', async () => {
    server.setScript([{ content: reply(4) }]);
    const v = await run('It is Paris.', 'What is the capital of France?', { judge: true }, judge(server.url));
    expect(v).toMatchObject({ score: 0.75, passed: true });
    expect(v.reason).toMatch(/^scored 4.00 of 5, needs 4\. relevancy 4: on topic/);
    const sent = (server.requests.at(-1)?.body.messages ?? []).map((m: { content: string }) => m.content).join('\n');
    expect(sent).toContain('What is the capital of France?');
    expect(sent).toContain('It is Paris.');
    server.setScript([{ content: reply(2) }]);
    expect(await run('Bananas.', 'Capital of France?', { judge: true }, judge(server.url))).toMatchObject({
      score: 0.25,
      passed: false,
    });
    server.setScript([{ content: reply(3) }]);
    const lenient = { judge: true, thresholds: { pass_score: 3 } };
    expect(await run('Bananas.', 'Capital?', lenient, judge(server.url))).toMatchObject({ passed: true });
  });

  it('a judge that cannot answer is ungradable; a reply with no JSON fails; a missing score is ungradable', async () => {
    expect(await run('x', 'y', { judge: true })).toMatchObject({
      passed: null,
      reason: 'no judge model configured ([judge.llm])',
    });
    // Its endpoint refusing is an outage: handed to grade.ts, which makes the check ungradable and tells the trial.
    await expect(run('x', 'y', { judge: true }, judge('http://127.0.0.1:9/v1'))).rejects.toThrow(ModelEndpointError);
    server.setScript([{ content: 'Looks relevant to me' }]);
    expect(await run('x', 'y', { judge: true }, judge(server.url))).toMatchObject({ passed: false, score: 0 });
    server.setScript([{ content: '{"other": 5}' }]);
    expect(await run('x', 'y', { judge: true }, judge(server.url))).toMatchObject({ passed: null });
  });
});
