// `hit_rate` and `reciprocal_rank` (docs/checks.md#retrieval): where the first of the sample's
// expected contexts is among the top `k` the agent reported. No contexts reported fails the check:
// the agent did not retrieve. An embeddings endpoint that cannot answer makes it ungradable (MODEL_ERROR
// for the trial when it failed for its endpoint's reasons: grade.ts).
import type { CheckConfig } from '../config/schema.ts';
import type { Verdict } from '../types.ts';
import { ModelEndpointError } from '../errors.ts';
import { expectedOf, firstHit, gradedContexts, label, matchOptions, type FirstHit } from './retrieval.ts';
import { optionalNumber, ungradable } from './text.ts';
import type { CheckImpl, CheckInput } from './types.ts';

const fmt = (n: number) => n.toFixed(2);

interface Found {
  hit: FirstHit | null;
  k: number;
  details: Record<string, unknown>;
  /** `rank 2 of the top 5 (7 reported)`-style context for reasons. */
  within: string;
  name?: string;
}

type Lookup = { found: Found } | { verdict: Verdict };

async function lookUp(input: CheckInput): Promise<Lookup> {
  const opts = matchOptions(input.check);
  const graded = gradedContexts(input.events, input.replies.length);
  if (!graded || graded.contexts.length === 0)
    return {
      verdict: {
        score: 0,
        passed: false,
        reason: 'no contexts reported: the agent did not retrieve',
        details: { k: opts.k, reported: 0, ...(graded ? { source: graded.source } : {}) },
      },
    };
  const top = graded.contexts.slice(0, opts.k);
  let hit: FirstHit | null;
  try {
    hit = await firstHit(input, top, opts);
  } catch (err) {
    if (err instanceof ModelEndpointError) throw err; // ungradable too, and the trial is told (grade.ts)
    return { verdict: ungradable((err as Error).message) };
  }
  const reported = graded.contexts.length;
  const details: Record<string, unknown> = {
    k: opts.k,
    reported,
    source: graded.source,
    rank: hit?.rank ?? null,
    ...(hit ? { matched: hit.expected } : {}),
    ...(hit?.similarity !== undefined ? { similarity: hit.similarity } : {}),
  };
  const within = `the top ${opts.k} (${reported} reported)`;
  const name = hit ? label(expectedOf(input.sample)[hit.expected]) : undefined;
  return { found: { hit, k: opts.k, details, within, name } };
}

function missed(f: Found, n: number): string {
  return n === 1 ? `the expected context is not in ${f.within}` : `none of the ${n} expected contexts in ${f.within}`;
}

export const hitRate: CheckImpl = {
  needsInput: false,
  needsExpectedContexts: true,
  validate(check) {
    matchOptions(check);
  },
  async run(input): Promise<Verdict> {
    const r = await lookUp(input);
    if ('verdict' in r) return r.verdict;
    const f = r.found;
    if (!f.hit)
      return { score: 0, passed: false, reason: missed(f, expectedOf(input.sample).length), details: f.details };
    return {
      score: 1,
      passed: true,
      reason: `expected context ${f.name} at rank ${f.hit.rank} of ${f.within}`,
      details: f.details,
    };
  },
};

function minScoreOf(check: CheckConfig): number {
  const { k } = matchOptions(check);
  const m = optionalNumber(check, 'min_score', { positive: true }) ?? 1 / k;
  if (m > 1) throw new Error(`check "${check.name}": min_score must be above 0 and at most 1`);
  return m;
}

export const reciprocalRank: CheckImpl = {
  needsInput: false,
  needsExpectedContexts: true,
  validate(check) {
    minScoreOf(check);
  },
  async run(input): Promise<Verdict> {
    const r = await lookUp(input);
    if ('verdict' in r) return r.verdict;
    const f = r.found;
    const min = minScoreOf(input.check);
    const score = f.hit ? 1 / f.hit.rank : 0;
    const passed = score >= min;
    const where = f.hit
      ? `expected context ${f.name} at rank ${f.hit.rank} of ${f.within}`
      : missed(f, expectedOf(input.sample).length);
    return {
      score,
      passed,
      reason: `reciprocal rank ${fmt(score)} ${passed ? '>=' : '<'} ${fmt(min)}: ${where}`,
      details: { ...f.details, min_score: min },
    };
  },
};
