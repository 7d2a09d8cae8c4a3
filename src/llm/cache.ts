// The record/replay cache for model calls (`--llm-cache record|replay`). Keyed by the request
// actually sent (never the api key or base_url), so a replayed trial sends nothing and sees the
// same answers. One JSON file per key; writes are atomic so parallel workers never read halves. An
// entry is scrubbed of the model keys (a model may echo its key): callers hash the scrubbed request,
// so that a replay, which sees the scrubbed answers, asks for the same keys.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChatResponse } from '../agents/types.ts';
import type { Scrubber } from '../config/scrub.ts';

export type CacheMode = 'off' | 'record' | 'replay';

/** The fields of a Chat Completions request that decide its answer. */
interface CacheableRequest {
  model: string;
  messages: unknown[];
  tools?: unknown[];
  temperature?: number | null;
  max_tokens?: number | null;
}

/** A stored answer: a chat completion by default, or another kind of response (embeddings). */
interface CacheEntry<R = ChatResponse, Q = CacheableRequest> {
  version: 1;
  key: string;
  model: string;
  latency_ms: number;
  response: R;
  /** What was asked, for people reading the cache (the gateway stores its protocol's request). */
  request: Q;
  recorded_at: string;
}

/** JSON with sorted keys and no undefined values: equal requests give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : sortKeys(x)));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) out[k] = sortKeys(x);
    }
    return out;
  }
  return v;
}

/**
 * The hash a response is stored under. `scope` keeps apart requests that are the same text but
 * must not share an answer: trial 2 of a sample sends what trial 1 sent, and must get its own.
 */
export function cacheKey(req: CacheableRequest, scope?: string): string {
  const { model, messages, tools, temperature, max_tokens } = req;
  return createHash('sha256')
    .update(canonicalJson({ model, messages, tools, temperature, max_tokens, ...(scope ? { scope } : {}) }))
    .digest('hex');
}

export class LlmCache {
  constructor(
    readonly dir: string,
    private readonly scrub?: Scrubber,
  ) {}

  private file(key: string): string {
    return join(this.dir, `${key}.json`);
  }

  /** The stored entry, or null when absent or unreadable (a broken file is re-recorded). */
  async get<R = ChatResponse>(key: string): Promise<CacheEntry<R> | null> {
    let text: string;
    try {
      text = await readFile(this.file(key), 'utf8');
    } catch {
      return null;
    }
    try {
      const entry = JSON.parse(text) as CacheEntry<R>;
      return entry && entry.key === key && entry.response ? entry : null;
    } catch {
      return null;
    }
  }

  async put<R = ChatResponse, Q = CacheableRequest>(
    entry: Omit<CacheEntry<R, Q>, 'version' | 'recorded_at'>,
  ): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const whole: CacheEntry<R, Q> = { version: 1, ...entry, recorded_at: new Date().toISOString() };
    const full = this.scrub ? this.scrub.value(whole) : whole;
    const target = this.file(entry.key);
    const tmp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(tmp, JSON.stringify(full, null, 2) + '\n');
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }
}

export function replayMissMessage(key: string, model: string): string {
  return `llm-cache replay: no recorded response for request ${key} (model ${model}); run once with --llm-cache record`;
}
