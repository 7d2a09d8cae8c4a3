// hit_rate and reciprocal_rank (docs/checks.md#retrieval) against hand-computed values: rank is the
// position reported (duplicates take their place, scores never reorder), matching by id, normalised
// text or similarity, and the contexts graded are the last reply's, else the last retrieved event's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradedContexts, normalise } from '../../../src/checks/retrieval.ts';
import { hitRate, reciprocalRank } from '../../../src/checks/rank.ts';
import type { CheckInput } from '../../../src/checks/types.ts';
import { ModelEndpointError } from '../../../src/errors.ts';
import type { ExpectedContext, RetrievedContext, TrajectoryEvent } from '../../../src/types.ts';
import { startModelServer, type ModelServer } from '../../support/model-server.ts';
import { cfg, input, sample, validate } from './helpers.ts';

type Reported = Array<string | RetrievedContext>;
const ctx = (c: string | RetrievedContext): RetrievedContext =>
  typeof c === 'string' ? { id: c, text: `text ${c}` } : c;
let step = 0;
const ev = (contexts: Reported, source: 'reply' | 'tool' = 'reply', turn = 1): TrajectoryEvent => ({
  step: ++step,
  ts: 0,
  type: 'retrieved',
  contexts: contexts.map(ctx),
  source,
  ...(source === 'reply' ? { turn } : {}),
});

/** A trial with one reply that reported `contexts`, graded for `expected`. */
function trial(
  type: string,
  expected: ExpectedContext[],
  contexts: Reported | null,
  check: Record<string, unknown> = {},
  extra: Partial<CheckInput> = {},
): CheckInput {
  return input(cfg(type, check), 'answer', undefined, {
    sample: sample({ expected_contexts: expected }),
    events: contexts ? [ev(contexts)] : [],
    ...extra,
  });
}

type Args = Parameters<typeof trial> extends [string, ...infer R] ? R : never;
const hit = (...a: Args) => hitRate.run(trial('hit_rate', ...a));
const rr = (...a: Args) => reciprocalRank.run(trial('reciprocal_rank', ...a));

describe('hit_rate', () => {
  it('passes with score 1 when an expected id is in the top k, and names its rank', async () => {
    expect(await hit(['b'], ['a', 'b', 'c'], { k: 2 })).toEqual({
      score: 1,
      passed: true,
      reason: 'expected context "b" at rank 2 of the top 2 (3 reported)',
      details: { k: 2, reported: 3, source: 'reply', rank: 2, matched: 0 },
    });
    expect(await hit(['c'], ['a', 'b', 'c'], { k: 2 })).toMatchObject({
      score: 0,
      passed: false,
      reason: 'the expected context is not in the top 2 (3 reported)',
      details: { rank: null },
    });
  });

  it('k larger than the list: the whole list counts', async () => {
    expect(await hit(['b'], ['a', 'b'], { k: 10 })).toMatchObject({
      passed: true,
      details: { k: 10, reported: 2, rank: 2 },
    });
    expect(await hit(['z'], ['a', 'b'], { k: 10 })).toMatchObject({ passed: false, score: 0 });
  });

  it('defaults k to 5', async () => {
    expect(await hit(['e'], ['a', 'b', 'c', 'd', 'e', 'f'])).toMatchObject({
      passed: true,
      details: { k: 5, rank: 5 },
    });
    expect(await hit(['f'], ['a', 'b', 'c', 'd', 'e', 'f'])).toMatchObject({ passed: false });
  });

  it('duplicates take their own places: repeating a context pushes the others out of the top k', async () => {
    expect(await hit(['b'], ['a', 'a', 'a', 'b'], { k: 3 })).toMatchObject({ passed: false });
    expect(await hit(['b'], ['a', 'a', 'a', 'b'], { k: 4 })).toMatchObject({ passed: true, details: { rank: 4 } });
    expect(await hit(['b'], ['b', 'b'], { k: 1 })).toMatchObject({ passed: true, details: { rank: 1 } });
  });

  it('several expected contexts: the first reported that matches any of them', async () => {
    expect(await hit(['c', 'b'], ['a', 'b', 'c'], { k: 3 })).toMatchObject({
      reason: 'expected context "b" at rank 2 of the top 3 (3 reported)',
      details: { rank: 2, matched: 1 },
    });
    expect(await hit(['x', 'y'], ['a'], { k: 3 })).toMatchObject({
      reason: 'none of the 2 expected contexts in the top 3 (1 reported)',
    });
  });

  it('no contexts, or an empty list, fails: the agent did not retrieve', async () => {
    const none = await hit(['a'], null);
    expect(none).toEqual({
      score: 0,
      passed: false,
      reason: 'no contexts reported: the agent did not retrieve',
      details: { k: 5, reported: 0 },
    });
    expect(await hit(['a'], [])).toMatchObject({
      passed: false,
      reason: 'no contexts reported: the agent did not retrieve',
    });
  });

  it('matches texts after normalisation: NFKC, case, spacing; an empty text matches nothing', async () => {
    const decomposed = { text: '  CAFE\u0301\u00a0au\tLAIT ' }; // É as E + combining acute, a no-break space, a tab
    expect(await hit([{ text: 'Café au lait' }], ['x', decomposed], { k: 2 })).toMatchObject({
      passed: true,
      details: { rank: 2 },
    });
    expect(await hit([{ text: 'café' }], [{ text: 'ｃａｆé' }])).toMatchObject({ passed: true }); // full-width letters
    expect(await hit([{ text: 'Café au lait' }], [{ text: 'Cafe au lait' }])).toMatchObject({ passed: false });
    expect(await hit([{ text: 'something' }], [{ text: '' }, { text: '   ' }])).toMatchObject({ passed: false });
    expect(normalise(' A\u2003 B\n')).toBe('a b');
  });

  it('a bare string matches an id or a text; an object only what it names; ids are compared as written', async () => {
    expect(await hit(['Refunds are prorated.'], [{ text: 'refunds are  prorated.' }])).toMatchObject({ passed: true });
    expect(await hit(['doc-7'], [{ id: 'doc-7', text: '' }])).toMatchObject({ passed: true });
    expect(await hit([{ id: 'doc-7' }], [{ text: 'doc-7' }])).toMatchObject({ passed: false });
    expect(await hit([{ text: 'doc-7' }], [{ id: 'doc-7', text: 'other' }])).toMatchObject({ passed: false });
    expect(await hit([{ id: 'Dök-1' }], [{ id: 'dök-1', text: 'x' }])).toMatchObject({ passed: false });
    expect(await hit([{ id: 'Dök-1' }], [{ id: 'Dök-1', text: 'x' }])).toMatchObject({ passed: true });
  });

  it('match = "similarity": the TF-IDF cosine against the threshold (default 0.8)', async () => {
    // The IDF is over the expected text and the top k contexts: "a b", "x y", "a c" (N = 3).
    // idf(a) = ln(4/3) + 1, idf(b) = idf(c) = ln(4/2) + 1; cos("a b", "a c") = idf(a)² / (idf(a)² + idf(b)²) = 0.3664
    const ia = Math.log(4 / 3) + 1;
    const ib = Math.log(2) + 1;
    const cos = (ia * ia) / (ia * ia + ib * ib);
    const sim = { match: 'similarity', k: 2 };
    const found = await hit([{ text: 'a b' }], [{ text: 'x y' }, { text: 'a c' }], { ...sim, threshold: 0.36 });
    expect(found).toMatchObject({ passed: true, details: { rank: 2 } });
    expect((found.details as { similarity: number }).similarity).toBeCloseTo(cos, 10);
    expect(await hit([{ text: 'a b' }], [{ text: 'x y' }, { text: 'a c' }], { ...sim, threshold: 0.37 })).toMatchObject(
      {
        passed: false,
      },
    );
    // over "a b", "a c" only (N = 2): 1 / (1 + (ln 1.5 + 1)²) = 0.3363
    expect(await hit([{ text: 'a b' }], [{ text: 'a c' }], { ...sim, threshold: 0.34 })).toMatchObject({
      passed: false,
    });
    // identical texts score exactly 1: a threshold of 1 is reachable
    expect(await hit([{ text: 'A b.' }], [{ text: 'a  B' }], { ...sim, threshold: 1 })).toMatchObject({ passed: true });
    expect(await hit([{ text: 'a b' }], [{ text: 'a c' }], { match: 'similarity' })).toMatchObject({ passed: false });
  });

  it('refuses bad keys at load', () => {
    const bad = (extra: Record<string, unknown>) => () => validate(hitRate, cfg('hit_rate', extra));
    expect(bad({ k: 0 })).toThrow(/k must be a positive number/);
    expect(bad({ k: 2.5 })).toThrow(/k must be a whole number from 1 to 50/);
    expect(bad({ k: 51 })).toThrow(/k must be a whole number from 1 to 50/);
    expect(bad({ match: 'fuzzy' })).toThrow(/match must be "exact" or "similarity"/);
    expect(bad({ threshold: 0.5 })).toThrow(/threshold applies to match = "similarity" only/);
    expect(bad({ match: 'similarity', threshold: 2 })).toThrow(/threshold must be between 0 and 1/);
    expect(bad({ match: 'similarity', backend: 'bm25' })).toThrow(/backend/);
    expect(bad({ k: 50, match: 'similarity', threshold: 0.5 })).not.toThrow();
  });
});

describe('reciprocal_rank', () => {
  it('scores 1/rank of the first expected context within the top k, 0 when none', async () => {
    const r = await rr(['c'], ['a', 'b', 'c', 'd'], { k: 4 });
    expect(r.score).toBeCloseTo(1 / 3, 12);
    expect(r).toMatchObject({
      passed: true,
      reason: 'reciprocal rank 0.33 >= 0.25: expected context "c" at rank 3 of the top 4 (4 reported)',
      details: { rank: 3, min_score: 0.25 },
    });
    expect(await rr(['a'], ['a', 'b'])).toMatchObject({ score: 1, passed: true });
    expect(await rr(['d'], ['a', 'b', 'c', 'd'], { k: 3 })).toMatchObject({
      score: 0,
      passed: false,
      reason: 'reciprocal rank 0.00 < 0.33: the expected context is not in the top 3 (4 reported)',
    });
  });

  it('min_score defaults to 1/k (any hit in the top k passes) and can ask for more', async () => {
    expect(await rr(['d'], ['a', 'b', 'c', 'd'], { k: 4 })).toMatchObject({ score: 0.25, passed: true });
    const strict = await rr(['c'], ['a', 'b', 'c'], { k: 3, min_score: 0.5 });
    expect(strict.passed).toBe(false);
    expect(strict.score).toBeCloseTo(1 / 3, 12);
    expect(await rr(['b'], ['a', 'b'], { k: 3, min_score: 0.5 })).toMatchObject({ score: 0.5, passed: true });
  });

  it('ties in score keep the reported order, and scores never reorder the list', async () => {
    const tied = [
      { id: 'x', text: 'x', score: 0.5 },
      { id: 'b', text: 'b', score: 0.5 },
    ];
    expect(await rr(['b'], tied)).toMatchObject({ score: 0.5, details: { rank: 2 } });
    const ascending = [
      { id: 'x', text: 'x', score: 0.1 },
      { id: 'b', text: 'b', score: 0.9 },
    ];
    expect(await rr(['b'], ascending)).toMatchObject({ score: 0.5, details: { rank: 2 } });
  });

  it('duplicates: the first place of the expected context counts; repeats before it lower the rank', async () => {
    expect(await rr(['b'], ['b', 'b', 'b'])).toMatchObject({ score: 1 });
    expect(await rr(['b'], ['a', 'a', 'b'])).toMatchObject({ details: { rank: 3 } });
  });

  it('unicode ids and texts', async () => {
    expect(await rr(['文書-２'], ['文書-1', '文書-２'])).toMatchObject({ score: 0.5 });
    expect(
      await rr([{ text: 'Ｒéglement' }], [{ text: 'x' }, { text: 'x' }, { text: 'RE\u0301GLEMENT' }]),
    ).toMatchObject({
      details: { rank: 3 },
    });
  });

  it('refuses a min_score outside (0, 1]', () => {
    expect(() => validate(reciprocalRank, cfg('reciprocal_rank', { min_score: 0 }))).toThrow(/min_score/);
    expect(() => validate(reciprocalRank, cfg('reciprocal_rank', { min_score: 1.5 }))).toThrow(/min_score/);
    expect(() => validate(reciprocalRank, cfg('reciprocal_rank', { k: 0 }))).toThrow(/k must/);
  });
});

describe('which contexts are graded', () => {
  const tool = (ids: string[]) => ev(ids, 'tool');
  const reply = (ids: string[], turn: number) => ev(ids, 'reply', turn);

  it("the last reply's when it carried contexts, even with tool events recorded after it", () => {
    const events = [tool(['t1']), reply(['r1'], 1), tool(['t2'])];
    expect(gradedContexts(events, 1)).toMatchObject({ source: 'reply', turn: 1, contexts: [{ id: 'r1' }] });
  });

  it("else the last retrieved event's, whatever its source", () => {
    expect(gradedContexts([reply(['r1'], 1), tool(['t2'])], 2)).toMatchObject({
      source: 'tool',
      contexts: [{ id: 't2' }],
    });
    expect(gradedContexts([tool(['t1']), reply(['r1'], 1)], 2)).toMatchObject({
      source: 'reply',
      contexts: [{ id: 'r1' }],
    });
    expect(gradedContexts([], 1)).toBeNull();
  });

  it('grades the reply of the last turn in a multi-turn trial', async () => {
    const events = [reply(['good'], 1), reply(['bad'], 2)];
    const v = await hitRate.run(
      input(cfg('hit_rate'), 'second', undefined, {
        sample: sample({ expected_contexts: ['good'] }),
        events,
        replies: ['first', 'second'],
      }),
    );
    expect(v).toMatchObject({ passed: false, details: { source: 'reply', reported: 1 } });
  });
});

describe('match = "similarity" with embeddings', () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server.close());
  const judge = (url: string) => ({ base_url: url, api_key: 'sk-x', model: 'm', max_retries: 0, timeout_s: 5 });

  it('embeds the expected texts and the non-empty contexts in one request', async () => {
    const v = await hit(
      [{ text: 'same text' }],
      [{ text: 'other words' }, { text: '' }, { text: 'same text' }],
      {
        match: 'similarity',
        backend: 'embeddings',
        model: 'emb-r',
      },
      { judge: judge(server.url) },
    );
    expect(v).toMatchObject({ passed: true, details: { rank: 3, similarity: 1 } });
    expect(server.embeddingRequests.at(-1)?.body).toMatchObject({
      model: 'emb-r',
      input: ['same text', 'other words', 'same text'],
    });
  });

  it('an endpoint that refuses is an outage for the trial (ModelEndpointError: checks/grade.ts)', async () => {
    const down = await startModelServer();
    await down.close(); // its port now refuses connections
    const v = hit(
      [{ text: 'a' }],
      [{ text: 'a' }],
      { match: 'similarity', backend: 'embeddings' },
      {
        judge: judge(down.url),
      },
    );
    await expect(v).rejects.toThrow(ModelEndpointError);
    await expect(v).rejects.toThrow(/embeddings model text-embedding-3-small failed/);
  });
});
