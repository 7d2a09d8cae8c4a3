// The OpenAI-compatible model client (docs/configuration.md, docs/agents.md): budget first, then cache, then the network
// with our own retries. Every call emits exactly one `llm_call` event; the api key never leaves
// the SDK (no event, error or log carries it).
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai/error';
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ChatMessage, ChatRequest, ChatResponse, LlmClient } from '../agents/types.ts';
import type { LlmConfig } from '../config/schema.ts';
import { scrubberFor, secretValues, type Scrubber } from '../config/scrub.ts';
import { abortReason, causeChain, causes, LlmError } from '../errors.ts';
import type { CallSink, CallTranscript, NewEvent } from '../types.ts';
import { CallBudget } from './budget.ts';
import { cacheKey, LlmCache, replayMissMessage, type CacheMode } from './cache.ts';
import { addCost, priceCall } from './prices.ts';
import { withRetry } from './retry.ts';
import { postChat } from './chat-http.ts';
import { NotJsonAnswer } from './not-json.ts';
import { endpointFailed } from './outage.ts';
import { chatCall, chatMessage } from './transcript.ts';

export type LlmRole = 'agent' | 'user' | 'judge';

export interface TokenCount {
  input: number;
  output: number;
}

/** A response as the client keeps it: the model's name, cached tokens, finish reason and reasoning as the upstream reported them. */
type Answer = ChatResponse & { model?: string; cached?: number; finish?: string; reasoning?: string };

interface LlmClientOptions {
  config: LlmConfig;
  role: LlmRole;
  /** Max calls of this client; null: unlimited (the judge). */
  budget: number | null;
  onEvent?: (e: NewEvent) => void;
  /** Set when the trial keeps transcripts: each call's event goes here with its transcript, not to onEvent. */
  onCall?: CallSink;
  signal?: AbortSignal;
  /** `scope` separates identical requests that must get answers of their own (one per trial). */
  cache?: { mode: CacheMode; dir: string; scope?: string };
  retry?: { baseMs?: number; maxMs?: number };
}

/** LlmClient plus the totals the lifecycle writes into the result's metadata. */
export interface BenchrigLlmClient extends LlmClient {
  readonly role: LlmRole;
  readonly model: string;
  readonly tokens: TokenCount;
  /** null when a call's model has no price (docs/agents.md#cost) */
  readonly costUsd: number | null;
  /**
   * The error this client threw because its endpoint failed (llm/outage.ts), when `err` is it or has
   * it among its causes; null otherwise. Kept by the client: an error made elsewhere is never one.
   */
  outageIn(err: unknown): LlmError | null;
}

/** One scrubber per model config (a run's config lives as long as the run): its regex is costly to make per trial. */
const scrubbers = new WeakMap<LlmConfig, Scrubber>();
function configScrubber(config: LlmConfig): Scrubber {
  let s = scrubbers.get(config);
  if (!s) scrubbers.set(config, (s = scrubberFor(secretValues(config))));
  return s;
}

// eslint-disable-next-line max-lines-per-function -- the client's chat closure shares budget, cache and retry state; split into steps next (issue #22 follow-up)
export function createLlmClient(opts: LlmClientOptions): BenchrigLlmClient {
  const { config, role, signal } = opts;
  const budget = new CallBudget(opts.budget, role === 'user' ? 'user_llm_calls' : 'llm_calls');
  const cacheMode = opts.cache?.mode ?? 'off';
  const scrub = configScrubber(config);
  const cache = opts.cache && cacheMode !== 'off' ? new LlmCache(opts.cache.dir, scrub) : null;
  const tokens: TokenCount = { input: 0, output: 0 };
  let cost: number | null = 0;
  const outages = new WeakSet<object>();

  const emit = (model: string, latency_ms: number, usage: Usage, error?: string, call?: () => CallTranscript) => {
    const priced = priceCall(usage, { answered: usage.model, configured: model }, config.price);
    cost = addCost(cost, priced.cost_usd);
    const event: NewEvent = {
      type: 'llm_call',
      model,
      ...(usage.model && usage.model !== model ? { response_model: usage.model } : {}),
      latency_ms: Math.round(latency_ms),
      tokens: { input: usage.input, output: usage.output, ...(usage.cached ? { cached: usage.cached } : {}) },
      cost_usd: priced.cost_usd,
      role,
      ...(error ? { error } : {}),
    };
    if (opts.onCall && call) opts.onCall(event, call());
    else opts.onEvent?.(event);
  };

  const account = (res: Answer): Usage => {
    const t = { input: res.usage.input_tokens, output: res.usage.output_tokens };
    tokens.input += t.input;
    tokens.output += t.output;
    return { ...t, cached: res.cached, model: res.model };
  };

  async function chat(req: ChatRequest): Promise<ChatResponse> {
    if (signal?.aborted) throw abortReason(signal);
    budget.take(); // throws LlmBudgetExceeded before any network or cache
    const params = toParams(req, config);
    const key = cache ? cacheKey(scrub.value(params), opts.cache?.scope) : '';
    const startedAt = new Date();
    // The call's transcript, made only when the trial keeps it.
    const answered = (res: Answer) => () => chatCall(role, startedAt, { ...params }, outputOf(res));
    const failed = (e: CallTranscript['error']) => () => chatCall(role, startedAt, { ...params }, null, e);

    if (cache) {
      const hit = await cache.get(key);
      if (hit) {
        const res: Answer = structuredClone(hit.response);
        emit(params.model, hit.latency_ms, account(res), undefined, answered(res));
        return plain(res);
      }
      if (cacheMode === 'replay') {
        const message = replayMissMessage(key, params.model);
        emit(params.model, 0, { input: 0, output: 0 }, message, failed({ body: message }));
        throw new LlmError(message);
      }
    }

    const started = performance.now();
    let attempts = 0;
    let res: Answer;
    try {
      const completion = await withRetry(() => (attempts++, postChat(config, params, signal)), {
        maxRetries: config.max_retries,
        baseMs: opts.retry?.baseMs,
        maxMs: opts.retry?.maxMs,
        signal,
      });
      res = fromCompletion(completion);
    } catch (err) {
      const aborted = signal?.aborted ?? false;
      const cause = aborted ? 'aborted' : scrub.text(describeCause(err, config) + hintFor(err, role, config));
      emit(params.model, performance.now() - started, { input: 0, output: 0 }, cause, failed(errorOf(err, cause)));
      if (signal?.aborted) throw abortReason(signal);
      const error = new LlmError(
        `${role} model ${params.model} failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${cause}`,
        err instanceof APIError ? (err.status as number | undefined) : undefined,
      );
      if (endpointFailed(err, params.model, config.model)) outages.add(error);
      throw error;
    }
    const latency = performance.now() - started;
    emit(params.model, latency, account(res), undefined, answered(res));
    if (cache)
      await cache.put({ key, model: params.model, latency_ms: Math.round(latency), response: res, request: params });
    return plain(res);
  }

  return {
    chat,
    role,
    model: config.model,
    get callsUsed() {
      return budget.callsUsed;
    },
    get callsLeft() {
      return budget.callsLeft;
    },
    get tokens() {
      return { ...tokens };
    },
    get costUsd() {
      return cost;
    },
    outageIn: (err) => ([...causes(err, 6)].find((e) => outages.has(e as object)) as LlmError | undefined) ?? null,
  };
}

function toParams(req: ChatRequest, config: LlmConfig): ChatCompletionCreateParamsNonStreaming {
  const params: ChatCompletionCreateParamsNonStreaming = {
    model: req.model ?? config.model,
    messages: req.messages.map(toSdkMessage),
  };
  if (req.tools && req.tools.length > 0) params.tools = req.tools;
  const temperature = req.temperature ?? config.temperature;
  if (temperature !== undefined) params.temperature = temperature;
  const maxTokens = req.max_tokens ?? config.max_tokens;
  if (maxTokens !== undefined) params.max_tokens = maxTokens;
  return params;
}

function toSdkMessage(m: ChatMessage): ChatCompletionMessageParam {
  switch (m.role) {
    case 'tool':
      return { role: 'tool', content: m.content ?? '', tool_call_id: m.tool_call_id ?? '' };
    case 'assistant':
      return {
        role: 'assistant',
        content: m.content,
        ...(m.tool_calls?.length ? { tool_calls: m.tool_calls } : {}),
        ...(m.name ? { name: m.name } : {}),
      };
    default:
      return { role: m.role, content: m.content ?? '', ...(m.name ? { name: m.name } : {}) };
  }
}

type Usage = TokenCount & { cached?: number; model?: string };

/** The response the agent gets: message and usage only. */
function plain(res: Answer): ChatResponse {
  return { message: res.message, usage: res.usage };
}

function fromCompletion(c: ChatCompletion): Answer {
  const msg = c.choices?.[0]?.message;
  if (!msg) throw new Error(`the response has no choices (model ${c.model ?? '?'})`);
  const message: ChatMessage = { role: 'assistant', content: msg.content ?? null };
  const calls = (msg.tool_calls ?? []).flatMap((tc) =>
    tc.type === 'function'
      ? [
          {
            id: tc.id,
            type: 'function' as const,
            function: { name: tc.function.name, arguments: tc.function.arguments ?? '' },
          },
        ]
      : [],
  );
  if (calls.length) message.tool_calls = calls;
  const cached = c.usage?.prompt_tokens_details?.cached_tokens;
  // Reasoning as OpenAI-compatible servers return it (vLLM, DeepSeek: reasoning_content; others: reasoning).
  const extra = msg as { reasoning_content?: unknown; reasoning?: unknown };
  const reasoning = typeof extra.reasoning_content === 'string' ? extra.reasoning_content : extra.reasoning;
  const finish = c.choices[0].finish_reason;
  return {
    message,
    ...(typeof finish === 'string' ? { finish } : {}),
    ...(typeof reasoning === 'string' && reasoning ? { reasoning } : {}),
    usage: { input_tokens: c.usage?.prompt_tokens ?? 0, output_tokens: c.usage?.completion_tokens ?? 0 },
    ...(typeof c.model === 'string' && c.model ? { model: c.model } : {}),
    ...(typeof cached === 'number' && cached > 0 ? { cached } : {}),
  };
}

/** An answer as the transcript keeps it. */
function outputOf(res: Answer): CallTranscript['output'] {
  return {
    message: chatMessage({ ...res.message, ...(res.reasoning ? { reasoning: res.reasoning } : {}) }),
    ...(res.finish ? { finish_reason: res.finish } : {}),
    usage: {
      input: res.usage.input_tokens,
      output: res.usage.output_tokens,
      ...(res.cached ? { cached: res.cached } : {}),
    },
  };
}

/** A failed call as the transcript keeps it: the HTTP status and the server's body, or the failure. */
function errorOf(err: unknown, cause: string): CallTranscript['error'] {
  if (err instanceof APIError && err.status !== undefined)
    return { status: err.status as number, body: err.error === undefined ? err.message : JSON.stringify(err.error) };
  return { body: cause };
}

const TABLE: Record<LlmRole, string> = {
  agent: '[llm]',
  user: '[user.llm] (else [llm])',
  judge: '[judge.llm] (else [llm])',
};

/**
 * What to check after a refusal (docs/agents.md#models): the key, or that none is set; for a model or
 * endpoint that is not found, where the model's name and the address come from.
 */
function hintFor(err: unknown, role: LlmRole, config: LlmConfig): string {
  const status = err instanceof APIError ? (err.status as number | undefined) : undefined;
  const table = TABLE[role];
  if (status === 401 || status === 403)
    return config.api_key
      ? ` (the key was refused: check OPENAI_API_KEY, or the api_key of ${table})`
      : ` (no key is set: set OPENAI_API_KEY, or the api_key of ${table})`;
  if (status === 404)
    return ` (check the model's name: --model, BENCHRIG_MODEL or the model of ${table}; and the endpoint: OPENAI_BASE_URL or the base_url of ${table})`;
  return '';
}

/** One line naming the cause: the HTTP status and server message, or the network error. */
function describeCause(err: unknown, config: LlmConfig): string {
  if (err instanceof APIConnectionTimeoutError) return `request timed out after ${config.timeout_s}s`;
  if (err instanceof APIConnectionError) return `connection error: ${causeChain(err.cause) || err.message}`;
  if (err instanceof NotJsonAnswer) return err.cause_line;
  if (err instanceof APIError && err.status !== undefined) {
    const body = err.error as { message?: unknown } | undefined;
    const msg = typeof body?.message === 'string' ? body.message : err.message;
    return `HTTP ${err.status}: ${msg}`;
  }
  return causeChain(err) || String(err);
}
