// Subsets of the dataset (docs/cli.md): `--sample` picks ids, `--shuffle` reorders with a seeded PRNG
// (same seed, same order, on every machine), then `--limit` keeps the first N.
import { BenchrigError } from '../errors.ts';
import type { Sample } from '../types.ts';

export interface FilterOptions {
  /** Ids to keep, each entry may be a comma list (`--sample a,b --sample c`). */
  sample?: string[];
  limit?: number;
  shuffle?: boolean;
  seed?: number | string;
}

export function filterSamples(samples: Sample[], opts: FilterOptions): Sample[] {
  const positions = filterPositions(
    samples.map((s) => s.id),
    opts,
  );
  return positions ? positions.map((p) => samples[p]) : samples;
}

/**
 * The positions of the samples to run, in run order, from their ids alone (a dataset read as a
 * stream keeps only its ids: lazy.ts); null when every sample runs in dataset order.
 */
export function filterPositions(ids: readonly string[], opts: FilterOptions): number[] | null {
  let out: number[] | null = null;
  const wanted = (opts.sample ?? [])
    .flatMap((s) => String(s).split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  if (wanted.length) {
    const known = new Set(ids);
    const unknown = wanted.filter((id) => !known.has(id));
    if (unknown.length) {
      const some = ids.slice(0, 10).join(', ');
      const more = ids.length > 10 ? `, … (${ids.length} in all)` : '';
      throw new BenchrigError(
        'usage',
        `--sample: unknown sample id${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `"${u}"`).join(', ')} (known: ${some}${more})`,
      );
    }
    // Keep dataset order, drop repeats.
    const keep = new Set(wanted);
    out = [];
    for (let i = 0; i < ids.length; i++) if (keep.has(ids[i])) out.push(i);
  }
  if (opts.shuffle) out = shuffle(out ?? ids.map((_, i) => i), opts.seed ?? 0);
  if (opts.limit !== undefined) {
    if (!Number.isInteger(opts.limit) || opts.limit < 1) {
      throw new BenchrigError('usage', `--limit: expected a whole number of at least 1, got ${opts.limit}`);
    }
    if (out || opts.limit < ids.length) out = (out ?? ids.map((_, i) => i)).slice(0, opts.limit);
  }
  return out;
}

/** Fisher–Yates with a seeded PRNG; returns a new array. */
export function shuffle<T>(items: readonly T[], seed: number | string): T[] {
  const rand = mulberry32(seedToInt(seed));
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** A number seed is used as is (mod 2^32); any other text is hashed (FNV-1a), so "7" and 7 agree. */
function seedToInt(seed: number | string): number {
  const n = typeof seed === 'number' ? seed : /^-?\d+$/.test(seed.trim()) ? Number(seed) : NaN;
  if (Number.isSafeInteger(n)) return n >>> 0;
  let h = 0x811c9dc5;
  for (const ch of String(seed)) {
    h ^= ch.codePointAt(0) ?? 0; // a character always has a code point at 0
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function mulberry32(a: number): () => number {
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
