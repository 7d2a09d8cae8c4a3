// A model's published rates (USD per million tokens) read from the table's data, for tests to compute
// an expected cost by hand rather than with the function benchrig prices with.
import { findProvider } from '@pydantic/genai-prices';

export function publishedRates(provider: string, model: string): { input: number; cached: number; output: number } {
  const m = findProvider({ providerId: provider })?.models.find((x) => x.id === model);
  if (!m || Array.isArray(m.prices)) throw new Error(`no flat price for ${provider}/${model} in the table`);
  const p = m.prices as Record<string, unknown>;
  const n = (k: string) => {
    if (typeof p[k] !== 'number') throw new Error(`${model}: no ${k}`);
    return p[k];
  };
  return { input: n('input_mtok'), cached: n('cache_read_mtok'), output: n('output_mtok') };
}

/** What a call costs at those rates: cached input tokens at the cached rate, the rest at the input rate. */
export function byHand(
  r: { input: number; cached: number; output: number },
  u: { input: number; cached: number; output: number },
) {
  return ((u.input - u.cached) * r.input + u.cached * r.cached + u.output * r.output) / 1e6;
}
