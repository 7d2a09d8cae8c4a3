// A trial's cost (docs/agents.md#cost): the sum of its model calls' prices, agent, simulated user and
// judge alike. Each call is priced where it is made (src/llm/prices.ts); an `llm_call` an agent recorded
// itself is priced here by the same rules. One call without a price makes the total null.
import { addCost, priceCall, type PriceOverride } from '../llm/prices.ts';
import type { TrajectoryEvent } from '../types.ts';

interface TrialCost {
  cost_usd: number | null;
  /** The models of the trial's calls that have no price, once each. */
  unpriced_models: string[];
}

export function trialCost(
  events: readonly TrajectoryEvent[],
  prices: { agent?: PriceOverride; user?: PriceOverride; judge?: PriceOverride },
): TrialCost {
  let total: number | null = 0;
  const unpriced = new Set<string>();
  for (const e of events) {
    if (e.type !== 'llm_call') continue;
    const priced =
      e.cost_usd !== undefined
        ? { cost_usd: e.cost_usd, model: e.response_model ?? e.model }
        : priceCall(e.tokens, { answered: e.response_model, configured: e.model }, prices[e.role ?? 'agent']);
    if (priced.cost_usd === null) unpriced.add(priced.model);
    total = addCost(total, priced.cost_usd);
  }
  return { cost_usd: total, unpriced_models: [...unpriced].sort() };
}
