import { describe, expect, it } from 'vitest';
import { BenchrigError } from '../../../src/errors.ts';
import { filterSamples, shuffle } from '../../../src/dataset/filter.ts';
import type { Sample } from '../../../src/types.ts';

const samples: Sample[] = Array.from({ length: 20 }, (_, i) => ({ id: `s${i}`, input: `task ${i}`, metadata: {} }));
const ids = (list: Sample[]) => list.map((s) => s.id);

describe('filterSamples', () => {
  it('keeps everything in dataset order by default', () => {
    expect(ids(filterSamples(samples, {}))).toEqual(ids(samples));
  });

  it('selects --sample ids (repeatable or comma lists) in dataset order', () => {
    expect(ids(filterSamples(samples, { sample: ['s5,s1', 's3', 's1'] }))).toEqual(['s1', 's3', 's5']);
  });

  it('names an unknown --sample id', () => {
    let err: unknown;
    try {
      filterSamples(samples, { sample: ['s1', 'nope'] });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BenchrigError);
    expect((err as BenchrigError).message).toMatch(/^--sample: unknown sample id "nope" \(known: s0, s1/);
  });

  it('keeps the first N with --limit and refuses a bad limit', () => {
    expect(ids(filterSamples(samples, { limit: 3 }))).toEqual(['s0', 's1', 's2']);
    expect(() => filterSamples(samples, { limit: 0 })).toThrow(/--limit: expected a whole number of at least 1/);
  });

  it('shuffles deterministically: same seed, same order; another seed, another order', () => {
    const a = ids(filterSamples(samples, { shuffle: true, seed: 42 }));
    const b = ids(filterSamples(samples, { shuffle: true, seed: 42 }));
    const c = ids(filterSamples(samples, { shuffle: true, seed: 43 }));
    expect(a).toEqual(b);
    expect(a).not.toEqual(ids(samples));
    expect(a).not.toEqual(c);
    expect([...a].sort()).toEqual([...ids(samples)].sort());
    // The seed as typed on the command line ("42") is the same seed; no seed means seed 0.
    expect(ids(filterSamples(samples, { shuffle: true, seed: '42' }))).toEqual(a);
    expect(ids(filterSamples(samples, { shuffle: true }))).toEqual(
      ids(filterSamples(samples, { shuffle: true, seed: 0 })),
    );
  });

  it('shuffles before --limit, so the subset is a random one', () => {
    const subset = ids(filterSamples(samples, { shuffle: true, seed: 7, limit: 5 }));
    expect(subset).toEqual(ids(shuffle(samples, 7)).slice(0, 5));
    expect(subset).not.toEqual(['s0', 's1', 's2', 's3', 's4']);
  });

  it('accepts text seeds: each text is its own stable seed', () => {
    expect(ids(shuffle(samples, 'nightly'))).toEqual(ids(shuffle(samples, 'nightly')));
    expect(ids(shuffle(samples, 'nightly'))).not.toEqual(ids(shuffle(samples, 'weekly')));
  });
});
