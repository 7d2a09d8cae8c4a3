// `similarity`: cosine similarity of the response to the expected text (or the best of a list of
// texts) is at least `threshold` (default 0.8); score = the similarity (docs/checks.md). Backend `tfidf`
// works offline (tfidf.ts); `embeddings` asks an OpenAI-compatible /embeddings endpoint, using
// `[judge.llm]`'s base_url and api_key and the check's `model`. A call that fails after retries makes
// the check ungradable, never failed; for its endpoint's reasons (llm/outage.ts) it is thrown as a
// ModelEndpointError: the trial is MODEL_ERROR (checks/grade.ts).
import type { CheckImpl, CheckInput } from './types.ts';
import type { CheckConfig } from '../config/schema.ts';
import type { Verdict } from '../types.ts';
import { ModelEndpointError } from '../errors.ts';
import { asTextList, optionalNumber, quote, ungradable } from './text.ts';
import { denseCosine, tfidfSimilarities } from './tfidf.ts';

const DEFAULT_THRESHOLD = 0.8;
const DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small';
const BACKENDS = ['tfidf', 'embeddings'] as const;

export function backendOf(check: CheckConfig): (typeof BACKENDS)[number] {
  const b = check.backend ?? 'tfidf';
  if (!BACKENDS.includes(b as never)) throw new Error(`check "${check.name}": backend must be "tfidf" or "embeddings"`);
  return b as (typeof BACKENDS)[number];
}

function thresholdOf(check: CheckConfig): number {
  const t = optionalNumber(check, 'threshold') ?? DEFAULT_THRESHOLD;
  if (t > 1) throw new Error(`check "${check.name}": threshold must be between 0 and 1`);
  return t;
}

interface Embedded {
  vectors: number[][];
  tokens: number;
}

/** Embeddings go through `--llm-cache` like chat calls: a replayed run sends nothing. */
export async function embed(input: CheckInput, texts: string[]): Promise<number[][]> {
  const model = typeof input.check.model === 'string' ? input.check.model : DEFAULT_EMBEDDING_MODEL;
  const cacheOpts = input.cache;
  if (!cacheOpts || cacheOpts.mode === 'off') return (await embedLive(input, model, texts)).vectors;
  const { mode } = cacheOpts;
  const { LlmCache, cacheKey, replayMissMessage } = await import('../llm/cache.ts');
  const cache = new LlmCache(cacheOpts.dir);
  const key = cacheKey({ model, messages: texts }, 'embeddings');
  const hit = await cache.get<Embedded>(key);
  if (hit) {
    input.onEvent?.({
      type: 'llm_call',
      model,
      latency_ms: hit.latency_ms,
      tokens: { input: hit.response.tokens, output: 0 },
      role: 'judge',
    });
    return hit.response.vectors;
  }
  if (mode === 'replay') throw new Error(replayMissMessage(key, model));
  const started = performance.now();
  const live = await embedLive(input, model, texts);
  await cache.put<Embedded>({
    key,
    model,
    latency_ms: Math.round(performance.now() - started),
    response: live,
    request: { model, messages: texts },
  });
  return live.vectors;
}

async function embedLive(input: CheckInput, model: string, texts: string[]): Promise<Embedded> {
  const cfg = input.judge;
  if (!cfg) throw new Error('no [judge.llm] configured for embeddings');
  // Loaded on first use (the OpenAI SDK: ~10 MB that most runs never need in the main process).
  const [{ default: OpenAI }, { withRetry }, { endpointFailed }] = await Promise.all([
    import('openai'),
    import('../llm/retry.ts'),
    import('../llm/outage.ts'),
  ]);
  const sdk = new OpenAI({
    baseURL: cfg.base_url,
    apiKey: cfg.api_key || 'sk-none',
    maxRetries: 0,
    timeout: cfg.timeout_s * 1000,
  });
  const started = performance.now();
  try {
    const res = await withRetry(
      () => sdk.embeddings.create({ model, input: texts, encoding_format: 'float' }, { signal: input.signal }),
      {
        maxRetries: cfg.max_retries,
        signal: input.signal,
      },
    );
    const tokens = res.usage?.prompt_tokens ?? 0;
    input.onEvent?.({
      type: 'llm_call',
      model,
      latency_ms: Math.round(performance.now() - started),
      tokens: { input: tokens, output: 0 },
      role: 'judge',
    });
    return { vectors: [...res.data].sort((a, b) => a.index - b.index).map((d) => d.embedding), tokens };
  } catch (err) {
    const msg = String((err as Error)?.message ?? err);
    const clean = cfg.api_key && cfg.api_key.length >= 4 ? msg.split(cfg.api_key).join('***') : msg;
    input.onEvent?.({
      type: 'llm_call',
      model,
      latency_ms: Math.round(performance.now() - started),
      tokens: { input: 0, output: 0 },
      role: 'judge',
      error: clean,
    });
    const message = `embeddings model ${model} failed: ${clean}`;
    // The model is the benchmark's (the check's `model`), never the agent's choice: a 404 is the endpoint's too.
    if (!input.signal?.aborted && endpointFailed(err, model, model)) throw new ModelEndpointError(message);
    throw new Error(message);
  }
}

export const similarity: CheckImpl = {
  needsInput: true,
  validate(check) {
    backendOf(check);
    thresholdOf(check);
    if (check.model !== undefined && typeof check.model !== 'string')
      throw new Error(`check "${check.name}": model must be a string`);
  },
  async run(input): Promise<Verdict> {
    const { check, expectation, response } = input;
    if (expectation === undefined || expectation === null) return ungradable('no expected text');
    const wanted = asTextList(expectation).filter((t) => t.trim() !== '');
    if (wanted.length === 0) return ungradable('no expected text');
    const threshold = thresholdOf(check);
    const backend = backendOf(check);
    let sims: number[];
    if (backend === 'tfidf') sims = tfidfSimilarities(response, wanted);
    else {
      if (response.trim() === '')
        sims = wanted.map(() => 0); // nothing to embed: nothing similar
      else {
        try {
          const [r, ...ws] = await embed(input, [response, ...wanted]);
          sims = ws.map((w) => denseCosine(r, w));
        } catch (err) {
          if (err instanceof ModelEndpointError) throw err; // ungradable too, and the trial is told (grade.ts)
          return ungradable((err as Error).message);
        }
      }
    }
    let best = 0;
    for (let i = 1; i < sims.length; i++) if (sims[i] > sims[best]) best = i;
    const score = Math.max(0, sims[best]);
    const details = {
      similarity: score,
      threshold,
      backend,
      ...(wanted.length > 1 ? { best_match: best, similarities: sims } : {}),
    };
    const to = wanted.length > 1 ? ` to ${quote(wanted[best], 40)}` : '';
    const reason = `similarity ${score.toFixed(2)}${to} ${score >= threshold ? '>=' : '<'} ${threshold}`;
    return { score, passed: score >= threshold, reason, details };
  },
};
