// The model gateway's public shapes (docs/agents.md#the-model-gateway): what a run starts, what a trial registers and gets
// back, and what the gateway tells the trial. The installed-agent code plugs in here: it registers a
// trial, hands `baseUrl` and `token` to the sandbox, and unregisters when the trial ends.
import type { PriceOverride } from '../llm/prices.ts';
import type { CacheMode } from '../llm/cache.ts';
import type { LlmBudgetExceeded } from '../errors.ts';
import type { CallSink, NewEvent } from '../types.ts';
import type { GatewayLimits } from './limits.ts';

/** The three wire APIs the gateway speaks. */
export type Protocol = 'chat' | 'responses' | 'messages';

/** Where the gateway forwards one protocol's requests. The key never leaves the gateway. */
export interface Upstream {
  protocol: Protocol;
  /** Up to and including the version segment: `https://api.anthropic.com/v1`; the route is appended. */
  baseUrl: string;
  apiKey: string;
  /** Every forwarded request asks for this model, whatever the agent asked for (the run's model). */
  model: string;
  timeoutMs: number;
  maxRetries: number;
  /** `[llm] price` (USD per million tokens): overrides the table of prices (docs/agents.md#cost). */
  price?: PriceOverride;
}

export interface GatewayOptions {
  /** Per protocol; a protocol without one is translated to `chat` (docs/agents.md#translation), or refused (400) without that either. */
  upstreams: Partial<Record<Protocol, Upstream>>;
  /** `--llm-cache`: shared with the react agent's client (same directory, same file format). */
  cache?: { mode: CacheMode; dir: string };
  /** 127.0.0.1 unless a sandbox network needs another address. */
  host?: string;
  /** 0 (default): an ephemeral port. */
  port?: number;
  retry?: { baseMs?: number; maxMs?: number };
  /** Bounds on bodies, requests in flight, connections and slow requests (limits.ts has the defaults). */
  limits?: Partial<GatewayLimits>;
}

/** What one trial gives the gateway. */
export interface GatewayTrial {
  /** For messages only (never a secret): `sample-3#1`. */
  id: string;
  /** max_llm_calls; null: unlimited. */
  budget: number | null;
  /** Separates identical requests of different trials in the cache, like the react client's scope. */
  cacheScope?: string;
  /** Text the agent puts in its prompts that differs between runs; ignored by the cache key (global regexes). */
  volatile?: RegExp[];
  /** Every `llm_call` and `tool_call` event, in the order the calls finish. */
  onEvent(event: NewEvent): void;
  /** Set when the trial keeps transcripts: each call's `llm_call` event goes here with its transcript, not to onEvent. */
  onCall?: CallSink;
  /** Once, at the first request past the budget (it was refused with a 400): stop with `llm_budget`. */
  onBudgetExhausted?(err: LlmBudgetExceeded): void;
  /**
   * A call the gateway could not answer after its retries (upstream down, replay miss): the trial's
   * CLI is stopped. `endpoint`: it failed for the endpoint's reasons (llm/outage.ts), also told to
   * onEndpointFailure.
   */
  onModelError?(message: string, endpoint: boolean): void;
  /**
   * A call that failed for the endpoint's reasons (llm/outage.ts: refused, reset, DNS, TLS, 401/403/404,
   * 5xx after the retries), answered to the agent as an error or not answered at all: an agent that
   * then fails is MODEL_ERROR (docs/agents.md#when-the-model-endpoint-fails).
   */
  onEndpointFailure?(message: string): void;
}

export interface GatewayUsage {
  calls: number;
  tokens: { input: number; output: number };
}

export interface GatewayRegistration {
  /** `http://127.0.0.1:PORT` (no /v1): Anthropic clients take it as is, OpenAI clients append `/v1`. */
  baseUrl: string;
  /** The trial's API key for the agent: a bearer token or an `x-api-key`. */
  token: string;
  /** Calls and tokens so far (the refused call past the budget is not a call). */
  readonly usage: GatewayUsage;
  /** The token stops working at once (401); calls still in flight finish and are recorded. */
  unregister(): void;
  /** Resolves when no call of this trial is in flight: after unregister(), its last events are in. */
  settled(): Promise<void>;
}

export interface ModelGateway {
  /** Listens; resolves with the base URL. */
  start(): Promise<{ baseUrl: string }>;
  /**
   * Also answers on a unix socket (mode 0666): how a sandbox with no network reaches the gateway
   * (docs/agents.md#installed-agents, through a forwarder inside it). The listeners do not keep the process alive.
   */
  listenUnix(path: string): Promise<void>;
  register(trial: GatewayTrial): GatewayRegistration;
  /** Stops listening and ends open connections. */
  close(): Promise<void>;
}
