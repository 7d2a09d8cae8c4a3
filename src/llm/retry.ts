// Retries for model calls (docs/configuration.md, docs/agents.md#the-conversation): 429, 5xx, network errors and timeouts are transient;
// 4xx client errors are not. Exponential backoff with full jitter, honouring retry-after headers.
import { APIConnectionError, APIError, APIUserAbortError } from 'openai/error';
import { abortReason, causes, errorField } from '../errors.ts';

interface RetryOptions {
  /** Retries after the first attempt (config `max_retries`). */
  maxRetries: number;
  baseMs?: number;
  maxMs?: number;
  signal?: AbortSignal;
  /** Called before each wait; for logging, never with secrets. */
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
}

const DEFAULT_BASE_MS = 500;
const DEFAULT_MAX_MS = 30_000;

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
]);

export function isRetryable(err: unknown): boolean {
  if (err instanceof APIUserAbortError) return false;
  // Connection errors and the SDK's timeout (a subclass) carry no status.
  if (err instanceof APIConnectionError) return true;
  if (err instanceof APIError) {
    const s = err.status as number | undefined;
    return s === undefined || s === 408 || s === 409 || s === 429 || s >= 500;
  }
  return isNetworkError(err);
}

function isNetworkError(err: unknown): boolean {
  for (const e of causes(err, 5)) {
    const code = errorField(e, 'code');
    const message = errorField(e, 'message');
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    if (typeof message === 'string' && /socket hang up|fetch failed|other side closed/i.test(message)) return true;
  }
  return false;
}

/** The delay the server asked for, in ms, or null. `retry-after-ms` wins over `retry-after`. */
export function serverDelayMs(
  headers: Headers | Record<string, string> | undefined | null,
  now = Date.now(),
): number | null {
  if (!headers) return null;
  const get = (k: string) => (headers instanceof Headers ? headers.get(k) : (headers[k] ?? null));
  const ms = get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const ra = get('retry-after');
  if (ra === null || ra.trim() === '') return null;
  if (/^\s*\d+(\.\d+)?\s*$/.test(ra)) return Math.max(0, Number(ra) * 1000);
  const date = Date.parse(ra);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Full jitter: uniform in [0, min(cap, base·2^attempt)]; a server's retry-after wins (capped). */
export function backoffMs(
  attempt: number,
  opts: { baseMs?: number; maxMs?: number },
  err?: unknown,
  rand = Math.random,
): number {
  const base = opts.baseMs ?? DEFAULT_BASE_MS;
  const cap = opts.maxMs ?? DEFAULT_MAX_MS;
  const asked = err instanceof APIError ? serverDelayMs(err.headers as Headers | undefined) : null;
  if (asked !== null) return Math.min(asked, cap);
  return Math.floor(rand() * Math.min(cap, base * 2 ** attempt));
}

/** Resolve after `ms`, or reject with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(timer);
      if (signal) reject(abortReason(signal)); // only a signal's abort event calls this
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Run `fn` until it succeeds, fails with a non-retryable error, or retries run out (last error thrown). */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, opts: RetryOptions): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    if (opts.signal?.aborted) throw abortReason(opts.signal);
    try {
      return await fn(attempt);
    } catch (err) {
      if (opts.signal?.aborted) throw abortReason(opts.signal);
      if (attempt >= opts.maxRetries || !isRetryable(err)) throw err;
      const delayMs = backoffMs(attempt, opts, err);
      opts.onRetry?.({ attempt: attempt + 1, delayMs, error: err });
      await sleep(delayMs, opts.signal);
    }
  }
}
