import { describe, expect, it } from 'vitest';
import { evaluateGate } from '../../../src/report/gate.ts';
import { computeMetrics } from '../../../src/report/metrics.ts';
import { trial } from './fixtures.ts';
import { defined } from '../../support/defined.ts';

const metrics = computeMetrics([
  trial('a', 'PASSED'),
  trial('b', 'PASSED'),
  trial('c', 'PASSED'),
  trial('d', 'FAILED'),
]).metrics; // pass_rate 0.75

describe('evaluateGate', () => {
  it('no gate: null', () => {
    expect(evaluateGate(undefined, metrics)).toBeNull();
  });

  it('passes at value >= threshold (equality included)', () => {
    expect(evaluateGate({ metric: 'pass_rate', threshold: 0.75 }, metrics)).toEqual({
      metric: 'pass_rate',
      threshold: 0.75,
      value: 0.75,
      passed: true,
      max_missing_rate: 0,
      detail: 'pass_rate 0.75 >= 0.75',
    });
  });

  it('fails below the threshold', () => {
    expect(evaluateGate({ metric: 'pass_rate', threshold: 0.9 }, metrics)).toMatchObject({
      value: 0.75,
      passed: false,
      detail: 'pass_rate 0.75 < 0.9',
    });
  });

  it('null metric: fails with missing evidence', () => {
    const empty = computeMetrics([trial('a', 'UNGRADABLE')]).metrics;
    expect(evaluateGate({ metric: 'pass_rate', threshold: 0 }, empty)).toEqual({
      metric: 'pass_rate',
      threshold: 0,
      value: null,
      passed: false,
      max_missing_rate: 0,
      detail: 'missing evidence',
    });
  });

  it('an unknown or non-scalar metric fails instead of throwing', () => {
    expect(evaluateGate({ metric: 'nope', threshold: 0 }, metrics)).toMatchObject({
      passed: false,
      value: null,
      detail: 'unknown metric "nope"',
    });
    expect(evaluateGate({ metric: 'tokens', threshold: 0 }, metrics)).toMatchObject({
      passed: false,
      detail: 'missing evidence',
    });
  });

  it('works on each gate metric', () => {
    for (const metric of ['pass_rate', 'pass_all_k', 'pass_at_k', 'mean_score']) {
      expect(defined(evaluateGate({ metric, threshold: 0.5 }, metrics)).value).not.toBeNull();
    }
  });

  it('an incomplete run fails: trials without a verdict are named, even when the metric would pass', () => {
    // Docker lost mid-run: 12 passed, 24 sandbox errors; pass_rate alone would read 1.0
    const lost = computeMetrics([
      ...Array.from({ length: 12 }, (_, i) => trial(`p${i}`, 'PASSED')),
      ...Array.from({ length: 24 }, (_, i) => trial(`s${i}`, 'SANDBOX_ERROR')),
    ]).metrics;
    expect(lost).toMatchObject({ pass_rate: 1, n_missing: 24, missing_rate: 24 / 36 });
    expect(evaluateGate({ metric: 'pass_rate', threshold: 0.9 }, lost)).toEqual({
      metric: 'pass_rate',
      threshold: 0.9,
      value: 1,
      passed: false,
      max_missing_rate: 0,
      detail: 'incomplete: 24 of 36 trials without a verdict',
    });
  });

  it('UNGRADABLE and AWAITING_REVIEW count as missing; max_missing_rate allows a share (inclusive)', () => {
    const m = computeMetrics([
      trial('a', 'PASSED'),
      trial('b', 'PASSED'),
      trial('c', 'UNGRADABLE'),
      trial('d', 'AWAITING_REVIEW'),
    ]).metrics;
    expect(m.n_missing).toBe(2);
    expect(evaluateGate({ metric: 'pass_rate', threshold: 1 }, m)).toMatchObject({
      passed: false,
      detail: 'incomplete: 2 of 4 trials without a verdict',
    });
    expect(evaluateGate({ metric: 'pass_rate', threshold: 1, max_missing_rate: 0.5 }, m)).toMatchObject({
      passed: true,
      max_missing_rate: 0.5,
      detail: 'pass_rate 1 >= 1',
    });
    expect(evaluateGate({ metric: 'pass_rate', threshold: 1, max_missing_rate: 0.49 }, m)).toMatchObject({
      passed: false,
    });
    // allowed missing trials never rescue a metric below its threshold
    expect(
      evaluateGate(
        { metric: 'pass_rate', threshold: 1, max_missing_rate: 1 },
        computeMetrics([trial('a', 'FAILED'), trial('b', 'SANDBOX_ERROR')]).metrics,
      ),
    ).toMatchObject({ passed: false, detail: 'pass_rate 0 < 1' });
  });

  it('AGENT_ERROR and TIMEOUT are verdicts (failures), not missing', () => {
    const m = computeMetrics([trial('a', 'PASSED'), trial('b', 'AGENT_ERROR'), trial('c', 'TIMEOUT')]).metrics;
    expect(m.n_missing).toBe(0);
    expect(evaluateGate({ metric: 'pass_rate', threshold: 0.3 }, m)).toMatchObject({ passed: true });
  });
});
