import { describe, expect, it } from 'vitest';
import { evaluateGate } from '../../../src/report/gate.ts';
import { computeMetrics } from '../../../src/report/metrics.ts';
import { trial } from './fixtures.ts';

const metrics = computeMetrics([trial('a', 'PASSED'), trial('b', 'PASSED'), trial('c', 'PASSED'), trial('d', 'FAILED')]).metrics; // pass_rate 0.75

describe('evaluateGate', () => {
  it('no gate: null', () => {
    expect(evaluateGate(undefined, metrics)).toBeNull();
  });

  it('passes at value >= threshold (equality included)', () => {
    expect(evaluateGate({ metric: 'pass_rate', threshold: 0.75 }, metrics)).toEqual({
      metric: 'pass_rate', threshold: 0.75, value: 0.75, passed: true, detail: 'pass_rate 0.75 >= 0.75',
    });
  });

  it('fails below the threshold', () => {
    expect(evaluateGate({ metric: 'pass_rate', threshold: 0.9 }, metrics)).toMatchObject({ value: 0.75, passed: false, detail: 'pass_rate 0.75 < 0.9' });
  });

  it('null metric: fails with missing evidence', () => {
    const empty = computeMetrics([trial('a', 'UNGRADABLE')]).metrics;
    expect(evaluateGate({ metric: 'pass_rate', threshold: 0 }, empty)).toEqual({
      metric: 'pass_rate', threshold: 0, value: null, passed: false, detail: 'missing evidence',
    });
  });

  it('an unknown or non-scalar metric fails instead of throwing', () => {
    expect(evaluateGate({ metric: 'nope', threshold: 0 }, metrics)).toMatchObject({ passed: false, value: null, detail: 'unknown metric "nope"' });
    expect(evaluateGate({ metric: 'tokens', threshold: 0 }, metrics)).toMatchObject({ passed: false, detail: 'missing evidence' });
  });

  it('works on each gate metric', () => {
    for (const metric of ['pass_rate', 'pass_all_k', 'pass_at_k', 'mean_score']) {
      expect(evaluateGate({ metric, threshold: 0.5 }, metrics)!.value).not.toBeNull();
    }
  });
});
