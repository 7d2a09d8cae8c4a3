// The price of one model call (docs/agents.md#cost): `[llm] price` when set, else the maintained table of
// `@pydantic/genai-prices` by the model name the upstream answered with (the configured one when it
// named none), with the cached-input rate where the usage reports cached tokens. A model the table
// does not know costs null: a guessed price is worse than none. The one module every caller prices with
// (the model client for agent, simulated user and judge; the gateway).
import { createRequire } from 'node:module';
import { priceMisses, type PriceMisses } from './price-misses.ts';

type Table = typeof import('@pydantic/genai-prices');
let table: Table | undefined;
/**
 * The table, loaded on the first name it is asked about (price-misses.ts: not for a name it is known
 * not to have). The package's CommonJS build, minified: the same table as its ES module build,
 * ~1.3 MB less heap in every thread that prices a call (its source held as a string, its code),
 * measured on 0.1.8.
 */
const loadTable = (): Table => (table ??= createRequire(import.meta.url)('@pydantic/genai-prices') as Table);

/** USD per million tokens, as `[llm] price` has it. */
export interface PriceOverride {
  input: number;
  output: number;
}

/** A call's usage: `input` includes `cached` (cache reads), as every API but Anthropic's reports it. */
interface CallUsage {
  input: number;
  output: number;
  cached?: number;
}

interface CallPrice {
  /** null: the table does not know the model (and no `[llm] price` was set). */
  cost_usd: number | null;
  /** The model the price was looked up by. */
  model: string;
}

export { PRICE_TABLE } from './price-table.ts';

/** The price of one call. `answered`: the model the upstream named in its answer, if any. */
export function priceCall(
  usage: CallUsage,
  model: { answered?: string | null; configured: string },
  override?: PriceOverride,
): CallPrice {
  const name = model.answered || model.configured;
  if (override) return { cost_usd: (usage.input * override.input + usage.output * override.output) / 1e6, model: name };
  if (usage.input === 0 && usage.output === 0) return { cost_usd: tableKnows(name) ? 0 : null, model: name };
  return { cost_usd: fromTable(usage, name), model: name };
}

function fromTable(usage: CallUsage, name: string): number | null {
  const match = matchOf(name);
  if (!match) return null;
  const cached = Math.min(usage.cached ?? 0, usage.input);
  const u = {
    input_tokens: usage.input,
    output_tokens: usage.output,
    ...(cached > 0 ? { cache_read_tokens: cached } : {}),
  };
  return safeCalc(u, match[0], match[1])?.total_price ?? null;
}

/** The name as given, then `provider/model` as the provider's model (OpenRouter-style names). */
function lookups(name: string): [string, { providerId?: string }][] {
  const slash = name.indexOf('/');
  if (slash <= 0) return [[name, {}]];
  const provider = name.slice(0, slash);
  const rest = name.slice(slash + 1);
  return [
    [name, {}],
    [rest, { providerId: provider }],
    [rest, {}],
  ];
}

function safeCalc(usage: Record<string, number>, id: string, options: { providerId?: string }) {
  const { calcPrice } = loadTable(); // outside the try: a table that does not load is an error, not a miss
  try {
    return calcPrice(usage, id, options);
  } catch {
    return null; // a provider id the table does not have
  }
}

/**
 * Which lookup of a name the table knows, found once per name and process: the table matches a
 * name against every provider's patterns, which cost more than the rest of a trial's model call
 * for a model it does not know (measured: `npm run perf`'s cpu_ms_per_trial).
 */
const matches = new Map<string, [string, { providerId?: string }] | null>();
let misses: PriceMisses | undefined;
function matchOf(name: string): [string, { providerId?: string }] | null {
  let m = matches.get(name);
  if (m === undefined) {
    misses ??= priceMisses();
    if (misses.has(name)) m = null;
    else {
      m = lookups(name).find(([id, options]) => safeCalc({ input_tokens: 1, output_tokens: 1 }, id, options)) ?? null;
      if (m === null) misses.add(name);
    }
    if (matches.size < 1000) matches.set(name, m); // bounded: names come from upstream answers
  }
  return m;
}

const tableKnows = (name: string): boolean => matchOf(name) !== null;

/** Sum of costs where any unknown (null) makes the total unknown. */
export function addCost(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a + b;
}
