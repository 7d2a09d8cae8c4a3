// One OpenAI-compatible chat completion over undici's dispatcher, without the SDK's request machinery
// (its per-call headers, signals, streams and web Response are most of a one-call trial's CPU): headers
// built once per endpoint and key, the body one string, the answer one Buffer. Failures throw the SDK's
// own error classes, made as the SDK makes them, so retries (retry.ts) and messages (client.ts) see
// the same; from 'openai/error', which does not load the whole SDK in every worker.
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai/error';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { VERSION } from 'openai/version';
import type { Dispatcher } from 'undici';
// The Agent alone, not the package's index (fetch, WebSocket, caches…): ~25 rather than ~57 ms of
// CPU to load in every worker (undici-agent.d.ts gives it its type).
import Agent from 'undici/lib/dispatcher/agent.js';
import type { LlmConfig } from '../config/schema.ts';
import { NotJsonAnswer } from './not-json.ts';

// Local servers take any key; the SDK refuses an empty one (and sent this placeholder).
const PLACEHOLDER_KEY = 'sk-none';

// Keep-alive connections, shared by every endpoint of this worker. undici's own timeouts are off:
// the call's timeout covers the whole request, as the SDK's did (the timer in postChat).
const dispatcher = new Agent({ headersTimeout: 0, bodyTimeout: 0 });

interface Endpoint {
  url: string;
  origin: string;
  path: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

// Built once per endpoint, key and timeout in a worker, shared by its trials.
const endpoints = new Map<string, Endpoint>();

function endpointFor(config: LlmConfig): Endpoint {
  const key = JSON.stringify([config.base_url, config.api_key, config.timeout_s]);
  let e = endpoints.get(key);
  if (!e) {
    // The SDK's URL: the base URL with `/chat/completions` appended (a trailing slash dropped).
    const base = (config.base_url ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
    const url = new URL(`${base}/chat/completions`);
    e = {
      url: url.href,
      origin: url.origin,
      path: url.pathname + url.search,
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        'user-agent': `OpenAI/JS ${VERSION}`,
        authorization: `Bearer ${config.api_key || PLACEHOLDER_KEY}`,
      },
      timeoutMs: config.timeout_s * 1000,
    };
    endpoints.set(key, e);
  }
  return e;
}

/** The SDK's test for a connection error that is a timeout. */
const looksLikeTimeout = (err: unknown) =>
  /timed? ?out/i.test(String(err) + (err && typeof err === 'object' && 'cause' in err ? String(err.cause) : ''));

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** POST the completion; resolves with the parsed answer, rejects with the SDK's error for the failure. */
export function postChat(
  config: LlmConfig,
  params: ChatCompletionCreateParamsNonStreaming,
  signal?: AbortSignal,
): Promise<ChatCompletion> {
  const e = endpointFor(config);
  const body = JSON.stringify(params);
  return new Promise<ChatCompletion>((resolve, reject) => {
    if (signal?.aborted) return reject(new APIUserAbortError());
    let settled = false;
    let abortRequest: ((err: Error) => void) | undefined;
    let status = 500;
    let headers: Record<string, string> = {};
    const chunks: Buffer[] = [];
    /** true the first time only: the promise settles once. */
    const settle = () => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      return true;
    };
    const fail = (err: Error) => settle() && reject(err);
    const done = (value: ChatCompletion) => settle() && resolve(value);
    const stop = (err: Error) => {
      fail(err);
      abortRequest?.(err);
    };
    const onAbort = () => stop(new APIUserAbortError());
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => stop(new APIConnectionTimeoutError()), e.timeoutMs);
    const connectionError = (err: unknown) =>
      signal?.aborted
        ? new APIUserAbortError()
        : looksLikeTimeout(err)
          ? new APIConnectionTimeoutError()
          : new APIConnectionError({ message: 'Connection error.', cause: err as Error });
    const handler: Dispatcher.DispatchHandlers = {
      onConnect: (abort) => {
        if (settled) abort(new Error('request ended before it was sent'));
        else abortRequest = abort;
      },
      onHeaders: (statusCode, raw) => {
        status = statusCode;
        headers = headersOf(raw);
        return true;
      },
      onData: (chunk) => (chunks.push(chunk), true),
      onError: (err) => fail(connectionError(err)),
      onComplete: () => {
        const text = chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8');
        const json = safeJson(text);
        const notJson = () =>
          new NotJsonAnswer(e.url, status, headers['content-type'] ?? '', text, new Headers(headers));
        if (status < 200 || status > 299) {
          if (json === undefined) return fail(notJson());
          return fail(APIError.generate(status, json as object, undefined, new Headers(headers)));
        }
        // Whatever the content-type says: JSON is read as JSON, anything else is reported as it is.
        if (json === undefined || json === null || typeof json !== 'object') return fail(notJson());
        const value = json as ChatCompletion;
        done(value);
      },
    };
    dispatcher.dispatch(
      {
        origin: e.origin,
        path: e.path,
        method: 'POST',
        headers: { ...e.headers, 'content-length': String(Buffer.byteLength(body)) },
        body,
      },
      handler,
    );
  });
}

/** undici's raw headers (name, value, name, value …) as one lower-cased record; repeated ones joined. */
function headersOf(raw: Buffer[] | string[] | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (!raw) return out;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const k = raw[i].toString().toLowerCase();
    const v = raw[i + 1].toString();
    out[k] = k in out ? `${out[k]}, ${v}` : v;
  }
  return out;
}
