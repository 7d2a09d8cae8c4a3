import { describe, expect, it } from 'vitest';
import { computeMetrics, MetricsAccumulator } from '../../../src/report/metrics.ts';
import { Z95 } from '../../../src/report/stats.ts';
import type { TrialResult } from '../../../src/types.ts';
import { trial, trials } from './fixtures.ts';
import { defined } from '../../support/defined.ts';

describe('metrics: gradable and ungradable', () => {
  it('a run of only AGENT_ERROR trials: pass_rate 0.0, agent_error_rate 1.0', () => {
    const { metrics: m } = computeMetrics([...trials('a', ['AGENT_ERROR', 'AGENT_ERROR']), trial('b', 'AGENT_ERROR')]);
    expect(m.pass_rate).toBe(0);
    expect(m.agent_error_rate).toBe(1);
    expect(m.mean_score).toBe(0); // null scores count as 0
    expect(m.pass_all_k).toBe(0);
    expect(m.pass_at_k).toBe(0);
    expect(m.pass_at).toEqual({ 1: 0, 2: 0 });
    const z2 = Z95 * Z95;
    expect(defined(m.pass_rate_ci95)[0]).toBe(0);
    expect(defined(m.pass_rate_ci95)[1]).toBeCloseTo(z2 / (3 + z2), 12);
  });

  it('nothing gradable: pass_rate and friends are null, never 0', () => {
    const { metrics: m } = computeMetrics([
      trial('a', 'UNGRADABLE'),
      trial('b', 'SANDBOX_ERROR'),
      trial('c', 'AWAITING_REVIEW'),
    ]);
    expect(m.n_gradable).toBe(0);
    expect(m.pass_rate).toBeNull();
    expect(m.pass_rate_ci95).toBeNull();
    expect(m.mean_score).toBeNull();
    expect(m.pass_all_k).toBeNull();
    expect(m.pass_at_k).toBeNull();
    expect(m.pass_at).toEqual({});
    expect(m.pass_hat).toEqual({});
    expect(m.ungradable_rate).toBeCloseTo(1 / 3, 12);
    expect(m.infra_error_rate).toBeCloseTo(1 / 3, 12);
    expect(m.agent_error_rate).toBe(0);
  });

  it('an empty run has null rates and zero counts', () => {
    const { metrics: m, tasks, checks } = computeMetrics([]);
    expect(m.n_trials).toBe(0);
    expect(m.pass_rate).toBeNull();
    expect(m.ungradable_rate).toBeNull();
    expect(m.guardrail_block_rate).toBeNull();
    expect(m.execution_time_s).toEqual({ mean: null, p50: null, p95: null, max: null });
    expect(tasks).toEqual([]);
    expect(checks).toEqual([]);
  });

  it('mixed run: hand-computed pass rates, pass@k, pass^k and flaky', () => {
    // a: PASSED FAILED UNGRADABLE -> gradable 2, passed 1
    // b: PASSED PASSED PASSED     -> gradable 3, passed 3
    // c: SANDBOX_ERROR            -> no gradable trial
    const results = [
      ...trials('a', ['PASSED', 'FAILED', 'UNGRADABLE']),
      ...trials('b', ['PASSED', 'PASSED', 'PASSED']),
      trial('c', 'SANDBOX_ERROR'),
    ];
    const { metrics: m, tasks } = computeMetrics(results);
    expect(m.n_trials).toBe(7);
    expect(m.n_gradable).toBe(5);
    expect(m.pass_rate).toBeCloseTo(4 / 5, 12);
    expect(m.pass_all_k).toBe(1 / 2); // only b, of a and b
    expect(m.pass_at_k).toBe(1);
    // k=1: mean(1/2, 1); k=2: a: 1 - C(1,2)/C(2,2) = 1, b: 1; k=3: only b qualifies (n >= 3)
    expect(m.pass_at).toEqual({ 1: 0.75, 2: 1, 3: 1 });
    // k=2: a: C(1,2)/C(2,2) = 0, b: 1; k=3: b: 1
    expect(m.pass_hat).toEqual({ 1: 0.75, 2: 0.5, 3: 1 });
    expect(m.ungradable_rate).toBeCloseTo(1 / 7, 12);
    expect(m.infra_error_rate).toBeCloseTo(1 / 7, 12);
    expect(m.status_counts).toMatchObject({ PASSED: 4, FAILED: 1, UNGRADABLE: 1, SANDBOX_ERROR: 1, AGENT_ERROR: 0 });
    expect(tasks).toEqual([
      {
        sample_id: 'a',
        input_hash: 'hash-a',
        trials: 3,
        passed: 1,
        gradable: 2,
        statuses: { PASSED: 1, FAILED: 1, UNGRADABLE: 1 },
        cost_usd: null,
        mean_score: 0.5, // (1 + 0) over its 2 gradable trials
        task_id: results[1].task_id, // its first trial that did not pass: the one a link opens
        flaky: true,
      },
      {
        sample_id: 'b',
        input_hash: 'hash-b',
        trials: 3,
        passed: 3,
        gradable: 3,
        statuses: { PASSED: 3 },
        cost_usd: null,
        mean_score: 1,
        task_id: results[3].task_id, // all passed: its first
        flaky: false,
      },
      {
        sample_id: 'c',
        input_hash: 'hash-c',
        trials: 1,
        passed: 0,
        gradable: 0,
        statuses: { SANDBOX_ERROR: 1 },
        cost_usd: null,
        mean_score: null,
        task_id: results[6].task_id,
        flaky: false,
      },
    ]);
  });

  it('1 trial per task: pass_all_k = pass_at_k = pass_rate = pass_at[1]', () => {
    const { metrics: m } = computeMetrics([
      trial('a', 'PASSED'),
      trial('b', 'FAILED'),
      trial('c', 'PASSED'),
      trial('d', 'TIMEOUT'),
    ]);
    expect(m.pass_rate).toBe(0.5);
    expect(m.pass_all_k).toBe(0.5);
    expect(m.pass_at_k).toBe(0.5);
    expect(m.pass_at).toEqual({ 1: 0.5 });
    expect(m.pass_hat).toEqual({ 1: 0.5 });
    expect(m.timeout_rate).toBe(0.25);
  });

  it('3 trials per task: pass_all_k and pass_at_k differ from pass_rate', () => {
    const { metrics: m } = computeMetrics([
      ...trials('a', ['PASSED', 'FAILED', 'PASSED']),
      ...trials('b', ['FAILED', 'FAILED', 'AGENT_ERROR']),
    ]);
    expect(m.pass_rate).toBeCloseTo(2 / 6, 12);
    expect(m.pass_all_k).toBe(0);
    expect(m.pass_at_k).toBe(0.5);
    // a: n=3 c=2; b: n=3 c=0
    expect(m.pass_at['2']).toBeCloseTo((1 + 0) / 2, 12); // a: 1 - C(1,2)/C(3,2) = 1
    expect(m.pass_hat['2']).toBeCloseTo((1 / 3 + 0) / 2, 12); // a: C(2,2)/C(3,2) = 1/3
    expect(m.pass_hat['3']).toBe(0);
  });
});

describe('metrics: scores, usage and safety', () => {
  it('mean_score over gradable trials; null score of AGENT_ERROR counts 0, UNGRADABLE excluded', () => {
    const { metrics: m } = computeMetrics([
      trial('a', 'PASSED', { score: 1 }),
      trial('b', 'FAILED', { score: 0.5 }),
      trial('c', 'AGENT_ERROR', { score: null }),
      trial('d', 'UNGRADABLE', { score: null }),
      trial('e', 'SANDBOX_ERROR', { score: 0.9 }),
    ]);
    expect(m.mean_score).toBeCloseTo(0.5, 12);
  });

  it('execution time, llm calls, tokens, cost, tools, stop reasons, error kinds', () => {
    const t = (s: number, extra: Partial<TrialResult> & { md?: Partial<TrialResult['metadata']> } = {}) =>
      trial('x', 'PASSED', { ...extra, md: { execution_time_s: s, ...extra.md } });
    const { metrics: m } = computeMetrics([
      t(1, {
        md: {
          execution_time_s: 1,
          llm_calls: 2,
          user_llm_calls: 1,
          tokens: { input: 10, output: 1 },
          tools_used: { bash: 2 },
          cost_usd: 0.5,
        },
      }),
      t(2, {
        md: {
          execution_time_s: 2,
          llm_calls: 4,
          tokens: { input: 5, output: 5 },
          tools_used: { bash: 1, read_file: 3 },
        },
        stop_reason: 'max_turns',
      }),
      t(3, { error: { kind: 'limit', message: 'x' }, stop_reason: 'llm_budget' }),
      t(4, { error: { kind: 'llm', message: 'x' }, stop_reason: 'error', status: 'AGENT_ERROR' }),
      t(10, { md: { execution_time_s: 10, cost_usd: 0.25 } }),
    ]);
    expect(m.execution_time_s).toEqual({ mean: 4, p50: 3, p95: expect.closeTo(8.8, 12), max: 10 });
    expect(m.llm_calls).toEqual({ total: 6, user_total: 1, mean: 6 / 5 });
    expect(m.tokens).toEqual({ input: 15, output: 6 });
    expect(m.cost_usd).toBe(0.75);
    expect(m.tools_used).toEqual({ bash: 3, read_file: 3 });
    expect(m.stop_reasons).toEqual({ agent_done: 2, max_turns: 1, llm_budget: 1, error: 1 });
    expect(m.error_kinds).toEqual({ limit: 1, llm: 1 });
  });

  it('cost is null when no trial recorded one', () => {
    expect(computeMetrics([trial('a', 'PASSED', { md: { cost_usd: null } })]).metrics.cost_usd).toBeNull();
  });

  it('red-team suite: guardrail blocks, safety violations among attacks, over-refusal among benign', () => {
    const benign = { sample_metadata: { benign: true } };
    const { metrics: m } = computeMetrics(
      [
        trial('atk1', 'PASSED', { blocked: true }), // attack blocked
        trial('atk2', 'FAILED'), // attack got through: violation
        trial('atk3', 'PASSED'), // answered safely
        trial('atk4', 'SANDBOX_ERROR'), // never ran: not an attack trial
        trial('ok1', 'PASSED', { blocked: true, md: benign }), // benign but blocked: over-refusal
        trial('ok2', 'PASSED', { md: benign }),
        trial('ok3', 'FAILED', { md: { ...benign, refused: true } }), // refused without a block
      ],
      { blocksAreSuccess: true },
    );
    expect(m.guardrail_block_rate).toBeCloseTo(2 / 7, 12);
    expect(m.safety_violation_rate).toBeCloseTo(1 / 3, 12);
    expect(m.over_refusal_rate).toBeCloseTo(2 / 3, 12);
  });

  it('safety_violation_rate is null outside red-team suites; over_refusal_rate null without benign samples', () => {
    const { metrics: m } = computeMetrics([trial('a', 'FAILED'), trial('b', 'PASSED', { blocked: true })]);
    expect(m.safety_violation_rate).toBeNull();
    expect(m.over_refusal_rate).toBeNull();
    expect(m.guardrail_block_rate).toBe(0.5);
  });

  it('per-check pass rates over verdicts only', () => {
    const v = (name: string, passed: boolean | null) => ({
      name,
      type: 'contains',
      passed,
      score: passed ? 1 : 0,
      reason: '',
    });
    const { checks } = computeMetrics([
      trial('a', 'PASSED', { checks: [v('c1', true), v('c2', null)] }),
      trial('b', 'FAILED', { checks: [v('c1', false), v('c2', null)] }),
      trial('c', 'PASSED', { checks: [v('c1', true), v('c2', null)] }),
    ]);
    expect(checks).toEqual([
      { name: 'c1', type: 'contains', n_gradable: 3, pass_rate: 2 / 3, mean_score: 2 / 3 },
      { name: 'c2', type: 'contains', n_gradable: 0, pass_rate: null, mean_score: null },
    ]);
  });

  it('accumulates one result at a time (stream-friendly)', () => {
    const acc = new MetricsAccumulator({ blocksAreSuccess: false });
    function* gen() {
      yield trial('a', 'PASSED');
      yield trial('a', 'FAILED');
    }
    for (const r of gen()) acc.add(r);
    expect(acc.finish().metrics.pass_rate).toBe(0.5);
  });
});
