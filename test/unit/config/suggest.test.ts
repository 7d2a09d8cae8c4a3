import { describe, expect, it } from 'vitest';
import { closest, editDistance } from '../../../src/config/suggest.ts';

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and swapped neighbours', () => {
    expect(editDistance('threshold', 'threshold')).toBe(0);
    expect(editDistance('threshhold', 'threshold')).toBe(1);
    expect(editDistance('timout_s', 'timeout_s')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('nmae', 'name')).toBe(1);
    expect(editDistance('ab', 'ba')).toBe(1);
  });
});

describe('closest', () => {
  const gate = ['metric', 'threshold', 'max_missing_rate'];
  it('suggests a known key a typo away, whatever its case', () => {
    expect(closest('threshhold', gate)).toBe('threshold');
    expect(closest('Metric', gate)).toBe('metric');
    expect(closest('nmae', ['name', 'description'])).toBe('name');
    expect(closest('max_turnz', ['max_turns', 'max_llm_calls'])).toBe('max_turns');
  });
  it('suggests nothing for a different word or a short key far from every known one', () => {
    expect(closest('colour', gate)).toBeNull();
    expect(closest('ab', ['xy'])).toBeNull();
    expect(closest('anything', [])).toBeNull();
  });
});
