import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { similarity } from '../../../src/checks/similarity.ts';
import { idf, tfidfSimilarities, tokenize } from '../../../src/checks/tfidf.ts';
import type { LlmConfig } from '../../../src/config/schema.ts';
import { ModelEndpointError } from '../../../src/errors.ts';
import { startModelServer, type ModelServer } from '../../support/model-server.ts';
import { cfg, input, validate } from './helpers.ts';
import { defined } from '../../support/defined.ts';
import { tempDir } from '../../support/cli.ts';

describe('tfidf', () => {
  it('tokenises into lower-cased words of any script', () => {
    expect(tokenize('Hello, World! Ça va? x2')).toEqual(['hello', 'world', 'ça', 'va', 'x2']);
  });

  it('uses the smoothed idf over the compared texts', () => {
    const w = idf([
      ['a', 'b'],
      ['a', 'c'],
    ]);
    expect(w.get('a')).toBeCloseTo(1, 12); // ln(3/3) + 1
    expect(w.get('b')).toBeCloseTo(Math.log(3 / 2) + 1, 12);
  });

  it('matches a hand-computed cosine', () => {
    // vectors [1, 1.4055, 0] and [1, 0, 1.4055]: cos = 1 / (1 + 1.4055²)
    const b = Math.log(3 / 2) + 1;
    expect(tfidfSimilarities('a b', ['a c'])[0]).toBeCloseTo(1 / (1 + b * b), 10);
    expect(tfidfSimilarities('The cat sat', ['the CAT sat.'])[0]).toBe(1);
    expect(tfidfSimilarities('cat', ['dog'])[0]).toBe(0);
    expect(tfidfSimilarities('', ['dog'])[0]).toBe(0);
  });
});

describe('similarity (tfidf)', () => {
  it('scores the similarity and passes at the threshold (default 0.8)', async () => {
    const v = await similarity.run(input(cfg('similarity'), 'The cat sat on the mat', 'the cat sat on the mat'));
    expect(v).toMatchObject({ passed: true, score: 1 });
    const b = Math.log(3 / 2) + 1;
    const w = await similarity.run(input(cfg('similarity'), 'a b', 'a c'));
    expect(w.score).toBeCloseTo(1 / (1 + b * b), 10);
    expect(w.passed).toBe(false);
    expect(w.reason).toBe('similarity 0.34 < 0.8');
    expect((await similarity.run(input(cfg('similarity', { threshold: 0.3 }), 'a b', 'a c'))).passed).toBe(true);
  });

  it('takes the best match of a list', async () => {
    const v = await similarity.run(
      input(cfg('similarity'), 'paris is the capital of france', ['berlin is big', 'Paris is the capital of France']),
    );
    expect(v).toMatchObject({ passed: true, score: 1, details: { best_match: 1 } });
  });

  it('validates backend and threshold at load', () => {
    expect(() => validate(similarity, cfg('similarity', { backend: 'bm25' }))).toThrow(/backend/);
    expect(() => validate(similarity, cfg('similarity', { threshold: 2 }))).toThrow(/threshold/);
  });
});

describe('similarity (embeddings)', () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server.close());
  const judge = (url: string): LlmConfig => ({
    base_url: url,
    api_key: 'sk-test-secret',
    model: 'judge-m',
    max_retries: 0,
    timeout_s: 5,
  });

  it('embeds response and expectations in one request with the check model, and records the call', async () => {
    const events: unknown[] = [];
    const check = cfg('similarity', { backend: 'embeddings', model: 'emb-1' });
    const v = await similarity.run(
      input(check, 'same text', ['other', 'same text'], { judge: judge(server.url), onEvent: (e) => events.push(e) }),
    );
    expect(v).toMatchObject({ passed: true, score: 1, details: { backend: 'embeddings', best_match: 1 } });
    expect(defined(server.embeddingRequests.at(-1)).body).toMatchObject({
      model: 'emb-1',
      input: ['same text', 'other', 'same text'],
    });
    expect(events).toEqual([expect.objectContaining({ type: 'llm_call', role: 'judge', model: 'emb-1' })]);
  });

  it('goes through --llm-cache: recorded once, replayed with the endpoint gone, a miss is ungradable', async () => {
    const dir = tempDir('benchrig-emb-cache-');
    const check = cfg('similarity', { backend: 'embeddings', model: 'emb-2' });
    const before = server.embeddingRequests.length;
    const recorded = await similarity.run(
      input(check, 'same text', 'same text', { judge: judge(server.url), cache: { mode: 'record', dir } }),
    );
    expect(server.embeddingRequests.length).toBe(before + 1);
    const replayed = await similarity.run(
      input(check, 'same text', 'same text', { judge: judge('http://127.0.0.1:9/v1'), cache: { mode: 'replay', dir } }),
    );
    expect(replayed).toEqual(recorded);
    expect(server.embeddingRequests.length).toBe(before + 1);
    const miss = await similarity.run(
      input(check, 'other text', 'same text', {
        judge: judge('http://127.0.0.1:9/v1'),
        cache: { mode: 'replay', dir },
      }),
    );
    expect(miss.passed).toBeNull();
    expect(miss.reason).toMatch(/llm-cache replay: no recorded response/);
  });

  it('an endpoint that refuses is an outage for the trial (ModelEndpointError), its key not in the message', async () => {
    const down = await startModelServer();
    const url = down.url;
    await down.close();
    const err = await Promise.resolve()
      .then(() => similarity.run(input(cfg('similarity', { backend: 'embeddings' }), 'x', 'y', { judge: judge(url) })))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelEndpointError);
    expect((err as Error).message).toMatch(/^embeddings model text-embedding-3-small failed: .*Connection error/);
    expect((err as Error).message).not.toContain('sk-test-secret');
  });
});
