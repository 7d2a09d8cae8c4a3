// Prices from the maintained table (docs/agents.md#cost): by the model the upstream answered with, the
// cached-input rate where reported, `[llm] price` overriding, null for a model the table does not know.
import { describe, expect, it } from 'vitest';
import { PRICE_TABLE, priceCall } from '../../../src/llm/prices.ts';
import { trialCost } from '../../../src/trial/cost.ts';
import type { TrajectoryEvent } from '../../../src/types.ts';
import { byHand, publishedRates } from '../../support/published-price.ts';

const mini = publishedRates('openai', 'gpt-4o-mini');

describe('priceCall', () => {
  it('prices gpt-4o-mini at its published rates, cached input at the cached rate', () => {
    const u = { input: 1200, output: 80, cached: 400 };
    expect(priceCall(u, { configured: 'gpt-4o-mini' }).cost_usd).toBeCloseTo(byHand(mini, u), 12);
    expect(priceCall({ input: 1200, output: 80 }, { configured: 'gpt-4o-mini' }).cost_usd).toBeCloseTo(
      byHand(mini, { input: 1200, output: 80, cached: 0 }),
      12,
    );
  });

  it('prices by the model the upstream answered with, else the configured one', () => {
    const u = { input: 1000, output: 100 };
    const answered = priceCall(u, { answered: 'gpt-4o-mini-2024-07-18', configured: 'my-alias' });
    expect(answered).toEqual({ cost_usd: expect.any(Number), model: 'gpt-4o-mini-2024-07-18' });
    expect(answered.cost_usd).toBeCloseTo(byHand(mini, { ...u, cached: 0 }), 12);
    expect(priceCall(u, { answered: null, configured: 'my-alias' })).toEqual({ cost_usd: null, model: 'my-alias' });
  });

  it('a provider-prefixed name is looked up at that provider', () => {
    const u = { input: 1000, output: 100 };
    expect(priceCall(u, { configured: 'openai/gpt-4o-mini' }).cost_usd).toBeCloseTo(
      byHand(mini, { ...u, cached: 0 }),
      12,
    );
  });

  it('[llm] price overrides the table', () => {
    expect(
      priceCall({ input: 1e6, output: 1e6 }, { configured: 'gpt-4o-mini' }, { input: 1, output: 2 }).cost_usd,
    ).toBe(3);
    expect(priceCall({ input: 1e6, output: 0 }, { configured: 'unknown-x' }, { input: 1, output: 2 }).cost_usd).toBe(1);
  });

  it('an unknown model has no price, even for a call that used no tokens', () => {
    expect(priceCall({ input: 10, output: 1 }, { configured: 'scripted-model' }).cost_usd).toBeNull();
    expect(priceCall({ input: 0, output: 0 }, { configured: 'scripted-model' }).cost_usd).toBeNull();
    expect(priceCall({ input: 0, output: 0 }, { configured: 'gpt-4o-mini' }).cost_usd).toBe(0);
  });

  it("names the table's version", () => {
    expect(PRICE_TABLE).toEqual({ name: '@pydantic/genai-prices', version: '0.1.8' });
  });
});

describe('a trial cost', () => {
  const ev = (e: Partial<Extract<TrajectoryEvent, { type: 'llm_call' }>>): TrajectoryEvent => ({
    step: 1,
    ts: 0,
    type: 'llm_call',
    model: 'gpt-4o-mini',
    latency_ms: 1,
    tokens: { input: 1000, output: 100 },
    ...e,
  });

  it('sums every call, agent, user and judge; prices an agent-recorded call without a price', () => {
    const c = trialCost([ev({ cost_usd: 0.001 }), ev({ role: 'user', cost_usd: 0.002 }), ev({ role: 'judge' })], {});
    expect(c.unpriced_models).toEqual([]);
    expect(c.cost_usd).toBeCloseTo(0.003 + byHand(mini, { input: 1000, output: 100, cached: 0 }), 12);
  });

  it('one call of an unknown model makes the total null and names the model once', () => {
    const c = trialCost(
      [ev({ cost_usd: 0.001 }), ev({ model: 'mystery', cost_usd: null }), ev({ model: 'mystery', cost_usd: null })],
      {},
    );
    expect(c).toEqual({ cost_usd: null, unpriced_models: ['mystery'] });
  });
});
