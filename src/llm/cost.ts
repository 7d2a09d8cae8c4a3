// Cost of model calls (docs/agents.md#the-conversation): only when `[llm] price = {input, output}` (USD per million tokens)
// is set; otherwise null, because a guessed price is worse than none.
import type { LlmConfig } from '../config/schema.ts';

export interface TokenCount {
  input: number;
  output: number;
}

export function costUsd(price: LlmConfig['price'] | undefined, tokens: TokenCount): number | null {
  if (!price) return null;
  return (tokens.input * price.input + tokens.output * price.output) / 1_000_000;
}

/** Sum of costs where any unknown (null) makes the total unknown. */
export function addCost(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a + b;
}
