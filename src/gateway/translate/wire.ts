// Reading the wire shapes of the three APIs without trusting them (docs/agents.md#the-model-gateway):
// every read is of an `unknown`, so a body of another shape reads as absent fields, never a throw.

export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Chat Completions' usage block as counts (prompt tokens include the cached ones, read and written). */
export interface ChatUsage {
  input: number;
  output: number;
  /** Prompt tokens read from the provider's cache. */
  cached: number;
  /** Prompt tokens written to it, where the server says (LiteLLM, OpenRouter); 0 otherwise. */
  cacheWrite: number;
  reasoning: number;
}

export const NO_USAGE: ChatUsage = { input: 0, output: 0, cached: 0, cacheWrite: 0, reasoning: 0 };

export function chatUsage(u: unknown): ChatUsage {
  const x = obj(u);
  const details = obj(x.prompt_tokens_details);
  return {
    input: num(x.prompt_tokens),
    output: num(x.completion_tokens),
    // OpenAI, vLLM, SGLang: prompt_tokens_details.cached_tokens; LiteLLM also cache_read_input_tokens.
    cached: num(details.cached_tokens) || num(x.cache_read_input_tokens),
    // LiteLLM: cache_creation_input_tokens; OpenRouter: prompt_tokens_details.cache_write_tokens.
    cacheWrite: num(x.cache_creation_input_tokens) || num(details.cache_write_tokens),
    reasoning: num(obj(x.completion_tokens_details).reasoning_tokens),
  };
}

/** Responses' usage: input includes the cached tokens, as in Chat Completions. */
export function responsesUsage(u: ChatUsage): Json {
  return {
    input_tokens: u.input,
    input_tokens_details: { cached_tokens: u.cached },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: u.reasoning },
    total_tokens: u.input + u.output,
  };
}

/** Messages' usage: input_tokens excludes the cache reads and writes, which are counted apart. */
export function messagesUsage(u: ChatUsage): Json {
  const write = Math.min(u.cacheWrite, Math.max(0, u.input - u.cached));
  return {
    input_tokens: Math.max(0, u.input - u.cached - write),
    output_tokens: u.output,
    cache_creation_input_tokens: write,
    cache_read_input_tokens: u.cached,
  };
}

/** The text of a content that is a string or a list of text parts (any API's). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return list(content)
    .map((p) => (typeof p === 'string' ? p : (str(obj(p).text) ?? '')))
    .join('');
}

/** Tool-call arguments as the JSON text Chat Completions carries. */
export const argsText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v ?? {}));

/** Tool-call arguments as the object Anthropic's `input` is: `{}` for what does not parse to one. */
export function argsObject(text: string): Json {
  try {
    const v: unknown = JSON.parse(text || '{}');
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : { _raw: text };
  } catch {
    return { _raw: text };
  }
}
