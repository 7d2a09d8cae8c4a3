// What the retrieval checks share (docs/checks.md#retrieval): which contexts are graded, the
// sample's expected contexts, and where in the top `k` the first of them is.
//
// Rank is the position in the reported list (1 = first), whatever the scores say: the agent ranks,
// scores are shown, never used to reorder (ties keep the agent's order), and a duplicate takes its
// own place, so reporting one context many times only pushes the others down.
import type { CheckConfig } from '../config/schema.ts';
import { MAX_CONTEXTS } from '../limits.ts';
import type { ExpectedContext, RetrievedContext, Sample, TrajectoryEvent } from '../types.ts';
import { backendOf, embed } from './similarity.ts';
import { optionalNumber, quote } from './text.ts';
import { denseCosine, tfidfSimilarities } from './tfidf.ts';
import type { CheckInput } from './types.ts';

const DEFAULT_K = 5;
const DEFAULT_MATCH_THRESHOLD = 0.8;

interface Graded {
  contexts: RetrievedContext[];
  source: 'reply' | 'tool';
  turn?: number;
}

/**
 * The contexts the retrieval checks grade: the last reply's when it carried `contexts` (the
 * harness's `retrieved` event of that turn, which no agent can record), else those of the last
 * `retrieved` event of the trial; null when there is none.
 */
export function gradedContexts(events: TrajectoryEvent[], replies: number): Graded | null {
  let last: Extract<TrajectoryEvent, { type: 'retrieved' }> | null = null;
  for (const e of events) {
    if (e.type !== 'retrieved' || !Array.isArray(e.contexts)) continue;
    if (e.source === 'reply' && e.turn === replies) return graded(e);
    last = e;
  }
  return last && graded(last);
}

const graded = (e: Extract<TrajectoryEvent, { type: 'retrieved' }>): Graded => ({
  contexts: e.contexts,
  source: e.source ?? 'tool',
  ...(e.turn !== undefined ? { turn: e.turn } : {}),
});

interface Expected {
  id?: string;
  text?: string;
}

/** The sample's expected contexts; a bare string is an id or a text, whichever matches. */
export function expectedOf(sample: Sample): Expected[] {
  return (sample.expected_contexts ?? []).map((e: ExpectedContext) => (typeof e === 'string' ? { id: e, text: e } : e));
}

/** Texts compared "exactly": Unicode-compatible forms (NFKC), lower case, runs of spacing as one space, trimmed. */
export function normalise(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

interface MatchOptions {
  k: number;
  match: 'exact' | 'similarity';
  threshold: number;
}

const MATCHES = ['exact', 'similarity'] as const;

/** The check's k, match and threshold; throws a message naming the key (load time). */
export function matchOptions(check: CheckConfig): MatchOptions {
  const where = `check "${check.name}"`;
  const k = optionalNumber(check, 'k', { positive: true }) ?? DEFAULT_K;
  if (!Number.isInteger(k) || k > MAX_CONTEXTS)
    throw new Error(`${where}: k must be a whole number from 1 to ${MAX_CONTEXTS} (the most contexts kept)`);
  const match = check.match ?? 'exact';
  if (!MATCHES.includes(match as never)) throw new Error(`${where}: match must be "exact" or "similarity"`);
  if (match === 'exact')
    for (const key of ['threshold', 'backend', 'model'])
      if (check[key] !== undefined) throw new Error(`${where}: ${key} applies to match = "similarity" only`);
  backendOf(check);
  const threshold = optionalNumber(check, 'threshold') ?? DEFAULT_MATCH_THRESHOLD;
  if (threshold > 1) throw new Error(`${where}: threshold must be between 0 and 1`);
  return { k, match: match as MatchOptions['match'], threshold };
}

export interface FirstHit {
  /** 1-based position in the reported list. */
  rank: number;
  /** Index of the expected context it matched. */
  expected: number;
  similarity?: number;
}

/**
 * The first of the top `k` contexts that matches an expected one: by id (equal strings), else by
 * text (normalised equality, or similarity ≥ threshold). An empty text matches no text.
 */
export async function firstHit(
  input: CheckInput,
  top: RetrievedContext[],
  opts: MatchOptions,
): Promise<FirstHit | null> {
  const expected = expectedOf(input.sample);
  const sims = opts.match === 'similarity' ? await similarities(input, expected, top) : null;
  for (let i = 0; i < top.length; i++) {
    const c = top[i];
    for (let j = 0; j < expected.length; j++) {
      const e = expected[j];
      if (e.id !== undefined && c.id !== undefined && c.id === e.id) return { rank: i + 1, expected: j };
      if (e.text === undefined || normalise(c.text) === '') continue;
      if (!sims) {
        if (normalise(c.text) === normalise(e.text)) return { rank: i + 1, expected: j };
      } else if (sims[j][i] >= opts.threshold) return { rank: i + 1, expected: j, similarity: sims[j][i] };
    }
  }
  return null;
}

/** sims[j][i]: similarity of expected text j to context i (0 for an expected without text, or an empty context). */
async function similarities(input: CheckInput, expected: Expected[], top: RetrievedContext[]): Promise<number[][]> {
  const texts = top.map((c) => c.text);
  if (backendOf(input.check) === 'tfidf')
    return expected.map((e) => (e.text === undefined ? texts.map(() => 0) : tfidfSimilarities(e.text, texts)));
  const wanted = expected.flatMap((e) => (e.text === undefined ? [] : [e.text]));
  const live = texts.map((t, i) => ({ t, i })).filter((x) => normalise(x.t) !== '');
  const vectors = await embed(input, [...wanted, ...live.map((x) => x.t)]);
  let w = 0;
  return expected.map((e) => {
    const row = texts.map(() => 0);
    if (e.text === undefined) return row;
    const v = vectors[w++];
    live.forEach((x, n) => (row[x.i] = denseCosine(v, vectors[wanted.length + n])));
    return row;
  });
}

/** How a matched expected context is named in a reason: its id, else its text. */
export function label(e: Expected): string {
  return e.id !== undefined ? quote(e.id, 40) : quote(e.text ?? '', 40);
}
