// Errors as values. A trial never throws across a worker boundary: it returns a result carrying one
// of these, like execa's results carry `timedOut` and `exitCode`.

export type ErrorKind =
  | 'usage' // bad flag or argument (exit 2)
  | 'config' // bad TOML, unknown key, unset ${VAR} (exit 2)
  | 'benchmark' // bad benchmark.toml, check missing its input (exit 2)
  | 'dataset' // malformed row, duplicate id (exit 2)
  | 'docker_unavailable' // daemon unreachable (exit 3)
  | 'unreachable' // a registry or a task's repository did not answer (exit 3)
  | 'storage' // the run folder's disk failed mid-run: full, read-only (exit 3)
  | 'sandbox' // infrastructure: could not create/start/exec the sandbox
  | 'agent' // the agent threw or its process died
  | 'llm' // the agent's model failed after retries, for a reason of the call (a timeout, a 400, a model it chose)
  | 'model' // infrastructure: the model endpoint failed the call (refused, reset, DNS, TLS, 401/403/404, 5xx)
  | 'timeout' // the trial passed its timeout
  | 'interrupted' // Ctrl-C
  | 'limit' // a budget or turn limit (not a failure)
  | 'internal';

export interface ErrorValue {
  kind: ErrorKind;
  message: string;
  cause?: string;
  stack?: string;
  /** Set false when running the trial again could not help (infrastructure errors only). */
  retryable?: boolean;
  /** What the sandbox provider knew of the sandbox when a failure was blamed. */
  sandbox?: SandboxFacts;
}

/** What the sandbox provider says of a sandbox after a failure: who is to blame depends on it (docs/sandboxes.md). */
export interface SandboxFacts {
  /** The daemon answered a fresh connection, and it is the one the sandbox started on (it never went away since). */
  daemon: boolean;
  /** Why the daemon does not count, when it does not. */
  lost?: string;
  /** gone: removed (never by the agent, which has no Docker access); unknown: the daemon did not say. */
  state: 'running' | 'stopped' | 'gone' | 'unknown';
  exitCode?: number;
  oomKilled?: boolean;
  /** Docker itself stopped it (a kill through its API, as its shutdown does), not a process inside. */
  killedByDocker?: boolean;
}

/** An error a user can cause or fix: printed as one line, never with a stack trace. */
export class BenchrigError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'BenchrigError';
  }
}

export const userError = (kind: 'usage' | 'config' | 'benchmark' | 'dataset', message: string) =>
  new BenchrigError(kind, message);

type LimitKind = 'llm_calls' | 'user_llm_calls' | 'turns' | 'time' | 'output_bytes' | 'disk';

/** The one error every limit raises; the result records which limit stopped the trial. */
export class LimitExceeded extends Error {
  constructor(
    readonly limitKind: LimitKind,
    readonly value: number,
    readonly limit: number,
  ) {
    super(`limit ${limitKind} exceeded: ${value} > ${limit}`);
    this.name = 'LimitExceeded';
  }
}

/** Thrown by the LLM client on the call past `max_llm_calls` (docs/agents.md). */
export class LlmBudgetExceeded extends LimitExceeded {
  constructor(value: number, limit: number, kind: 'llm_calls' | 'user_llm_calls' = 'llm_calls') {
    super(kind, value, limit);
    this.name = 'LlmBudgetExceeded';
  }
}

/**
 * What a sandbox provider knew when a call failed (docs/sandboxes.md#who-is-blamed): whether its
 * daemon (or control plane) answered the call itself, and what it said of the service, if anything.
 * Set by the provider, in sandbox/; blame reads these, never a client library's error shape.
 */
export interface SandboxErrorFacts {
  /** answered: the daemon refused or failed the call itself; unreachable: no answer (a timeout, a dropped connection). */
  daemon: 'answered' | 'unreachable';
  /** The service the call was for, as the answer described it: removed, not running, or killed for memory. */
  service?: 'gone' | 'stopped' | 'oom';
}

/** An infrastructure failure (a sandbox provider's): retried, then SANDBOX_ERROR, never the agent's fault. */
export class SandboxError extends Error {
  /** Whether the daemon answered this failure itself; unreachable unless the provider said otherwise. */
  readonly daemon: SandboxErrorFacts['daemon'];
  readonly service?: SandboxErrorFacts['service'];
  constructor(
    message: string,
    readonly cause?: unknown,
    /** false: retrying with a fresh sandbox would fail the same way (a failing setup command). */
    readonly retryable = true,
    facts?: SandboxErrorFacts,
  ) {
    super(message);
    this.name = 'SandboxError';
    this.daemon = facts?.daemon ?? 'unreachable';
    if (facts?.service) this.service = facts.service;
  }
}

/**
 * The model failed after every retry (docs/agents.md#the-conversation): the trial is AGENT_ERROR with this
 * cause, unless its endpoint failed and the client says so (MODEL_ERROR: llm/outage.ts, trial/agent-phase.ts).
 */
export class LlmError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'LlmError';
  }
}

/**
 * A model call failed for its endpoint's reasons (docs/agents.md#when-the-model-endpoint-fails): the
 * trial is MODEL_ERROR. Made by the harness only, from an error its own model client threw
 * (trial/agent-phase.ts, checks/llm-judge.ts); one an agent throws itself is the agent's.
 */
export class ModelEndpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelEndpointError';
  }
}

export function toErrorValue(err: unknown, kind: ErrorKind = 'internal'): ErrorValue {
  if (err instanceof BenchrigError) return { kind: err.kind, message: err.message };
  if (err instanceof ModelEndpointError) return { kind: 'model', message: err.message };
  if (err instanceof SandboxError)
    return {
      kind: 'sandbox',
      message: err.message,
      cause: err.cause ? describe(err.cause) : undefined,
      ...(err.retryable ? {} : { retryable: false }),
    };
  if (err instanceof LlmError) return { kind: 'llm', message: err.message };
  if (err instanceof LimitExceeded) return { kind: 'limit', message: err.message };
  if (err instanceof Error) return { kind, message: err.message || err.name, stack: err.stack };
  return { kind, message: describe(err) };
}

export function describe(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  if (typeof err === 'string') return err;
  try {
    return JSON.stringify(err);
  } catch {
    return String(err);
  }
}

/**
 * One line naming an error and what caused it, outermost first: `fetch failed: connect
 * ECONNREFUSED 127.0.0.1:9 (ECONNREFUSED)`. Follows `cause` up to `depth` levels; a `code` the
 * message does not already name is added in brackets; empty links are left out.
 */
export function causeChain(err: unknown, depth = 5): string {
  const parts: string[] = [];
  let e: unknown = err;
  for (let d = 0; e !== null && e !== undefined && d < depth; d++) {
    const { message, code, cause } = e as { message?: unknown; code?: unknown; cause?: unknown };
    // A thrown value that is not an Error: a string or number reads as itself, an object as its own toString.
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- any thrown value, printed as String() prints it
    const text = typeof message === 'string' ? message : String(e);
    const suffix = typeof code === 'string' && !text.includes(code) ? ` (${code})` : '';
    if (text || suffix) parts.push(text + suffix);
    e = cause;
  }
  return parts.join(': ');
}

/** A field of a thrown value (an Error's `code`, `cause`…); undefined when the value is not an object. */
export function errorField(err: unknown, key: string): unknown {
  return (typeof err === 'object' && err !== null) || typeof err === 'function'
    ? (err as Record<string, unknown>)[key]
    : undefined;
}

/** A thrown value, then its `cause`, that one's `cause`… while they are truthy, at most `max` of them. */
export function* causes(err: unknown, max: number): Generator<unknown> {
  for (let e = err, depth = 0; e && depth < max; e = errorField(e, 'cause'), depth++) yield e;
}

/**
 * Why an aborted signal was aborted, as an Error to reject or throw with: its reason when that is
 * an Error (a trial's timeout, an interrupt, the AbortError that `abort()` gives), else an AbortError.
 */
export function abortReason(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  return r instanceof Error
    ? r
    : new DOMException(typeof r === 'string' ? r : 'The operation was aborted', 'AbortError');
}
