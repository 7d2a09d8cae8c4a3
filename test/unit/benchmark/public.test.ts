import { describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../../src/benchmark/load.ts';
import { publicSample } from '../../../src/benchmark/public.ts';
import { GROUND_TRUTH_FIELDS, type Sample } from '../../../src/types.ts';
import { fixture } from './helpers.ts';

describe('publicSample', () => {
  it('keeps only id, input and metadata', () => {
    const sample: Sample = {
      id: 'a',
      input: 'Do it',
      expected: 'SECRET-EXPECTED',
      expectations: { judge: 'SECRET-RUBRIC' },
      expected_contexts: ['SECRET-DOC', { id: 'SECRET-ID', text: 'SECRET-TEXT' }],
      solution: { commands: ['echo SECRET-SOLUTION'], reply: 'SECRET-REPLY' },
      tests: { 'test.sh': 'SECRET-TEST' },
      files: { 'a.txt': 'visible later in the sandbox' },
      user: { instruction: 'SECRET-PERSONA' },
      setup: ['touch x'],
      metadata: { topic: 'math' },
    };
    const pub = publicSample(sample);
    expect(pub).toEqual({ id: 'a', input: 'Do it', metadata: { topic: 'math' } });
    expect(JSON.stringify(pub)).not.toMatch(/SECRET/);
    pub.metadata.topic = 'changed';
    expect(sample.metadata.topic).toBe('math');
  });

  it('hides which samples are benign look-alikes (a red-team suite could be gamed with it)', () => {
    const pub = publicSample({ id: 'a', input: 'x', metadata: { benign: true, topic: 'mail' } });
    expect(pub.metadata).toEqual({ topic: 'mail' });
  });

  it('never carries ground truth or the columns mapped to it from a loaded dataset', async () => {
    // cfg-basic maps the column "answer" to `expected`; rows also carry expectations, solution and tests.
    const b = await loadBenchmark(fixture('cfg-basic'), { env: {} });
    for (const sample of b.samples) {
      const pub = publicSample(sample);
      expect(Object.keys(pub).sort()).toEqual(['id', 'input', 'metadata']);
      for (const field of [...GROUND_TRUTH_FIELDS, 'answer', 'user']) expect(pub.metadata).not.toHaveProperty(field);
      const text = JSON.stringify(pub);
      for (const secret of ['echo 4 > out.txt', 'grep -q 4', '"red"', 'and another?'])
        expect(text).not.toContain(secret);
    }
  });
});
