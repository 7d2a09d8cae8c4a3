// One OpenAI-compatible chat completion over Node's own HTTP client, without the SDK's request
// machinery (its per-call headers, signals, streams and web Response are most of a one-call trial's
// CPU): headers built once per endpoint and key, the body one string, the answer one Buffer. Failures
// throw the SDK's own error classes, made as the SDK makes them, so retries (retry.ts) and messages
// (client.ts) see the same; from 'openai/error', which does not load the whole SDK in every worker.
// node:http rather than undici: a worker loads node:http anyway (Docker's client), and undici's
// JavaScript and its WebAssembly HTTP parser cost each thread ~3-6 MB resident
// (docs/performance.md#agentic-runs-vs_inspect_agentic_).
import http from 'node:http';
import type https from 'node:https';
import { createRequire } from 'node:module';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai/error';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { VERSION } from 'openai/version';
import type { LlmConfig } from '../config/schema.ts';
import { NotJsonAnswer } from './not-json.ts';

// Local servers take any key; the SDK refuses an empty one (and sent this placeholder).
const PLACEHOLDER_KEY = 'sk-none';

// Keep-alive connections, shared by every endpoint of this worker; https (and TLS) loaded with the
// first https endpoint. No socket timeout: the call's timeout covers the whole request, as the SDK's
// did (the timer in postChat).
const httpAgent = new http.Agent({ keepAlive: true });
let httpsAgent: https.Agent | undefined;
const httpsModule = (): typeof https => createRequire(import.meta.url)('node:https') as typeof https;

interface Endpoint {
  url: URL;
  headers: Record<string, string>;
  timeoutMs: number;
  request: typeof http.request;
  agent: http.Agent;
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
    const secure = url.protocol === 'https:';
    const tls = secure ? httpsModule() : undefined;
    if (tls) httpsAgent ??= new tls.Agent({ keepAlive: true });
    e = {
      url,
      request: tls ? tls.request : http.request,
      agent: tls && httpsAgent ? httpsAgent : httpAgent,
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
      req.destroy(err); // called from a timer or an abort listener: after req exists
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
    const complete = (status: number, headers: Record<string, string>) => {
      const text = chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8');
      const json = safeJson(text);
      const notJson = () =>
        new NotJsonAnswer(e.url.href, status, headers['content-type'] ?? '', text, new Headers(headers));
      if (status < 200 || status > 299) {
        if (json === undefined) return fail(notJson());
        return fail(APIError.generate(status, json as object, undefined, new Headers(headers)));
      }
      // Whatever the content-type says: JSON is read as JSON, anything else is reported as it is.
      if (json === undefined || json === null || typeof json !== 'object') return fail(notJson());
      done(json as ChatCompletion);
    };
    const req = e.request(
      e.url,
      {
        method: 'POST',
        agent: e.agent,
        headers: { ...e.headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const status = res.statusCode ?? 500;
        const headers = headersOf(res.rawHeaders);
        res.on('data', (chunk: Buffer) => void chunks.push(chunk));
        res.on('end', () => complete(status, headers));
        res.on('error', (err) => fail(connectionError(err)));
        // A connection that ends before the answer is whole ends it without 'end' (or 'error').
        res.on('close', () => {
          if (!res.complete) fail(connectionError(new Error('the connection closed before the answer was whole')));
        });
      },
    );
    req.on('error', (err) => fail(connectionError(err)));
    req.end(body);
  });
}

/** The raw headers (name, value, name, value …) as one lower-cased record; repeated ones joined. */
function headersOf(raw: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const k = raw[i].toLowerCase();
    const v = raw[i + 1];
    out[k] = k in out ? `${out[k]}, ${v}` : v;
  }
  return out;
}
