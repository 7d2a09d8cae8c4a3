// One OpenAI-compatible chat completion over node:http(s), without the SDK's request machinery
// (issue 17). Per call the SDK built its headers from six layers, formatted debug-log details,
// made an AbortSignal.any, a Headers, a Response and a web ReadableStream, and parsed the body
// through them: most of the ~0.5 ms of CPU a one-call trial spent on its model call (measured with
// --cpu-prof, 4,000 trials). Here the headers are built once per endpoint and key, the body is one
// string, the answer one Buffer. Failures throw the SDK's own error classes, made as the SDK makes
// them (APIError.generate, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError), so
// retries (retry.ts) and error messages (client.ts) see exactly what they saw before.
import http from 'node:http';
import https from 'node:https';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { VERSION } from 'openai/version';
import type { LlmConfig } from '../config/schema.ts';

// Local servers take any key; the SDK refuses an empty one (and sent this placeholder).
const PLACEHOLDER_KEY = 'sk-none';

const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

interface Endpoint {
  url: URL;
  transport: typeof http | typeof https;
  agent: http.Agent;
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
      url,
      transport: url.protocol === 'https:' ? https : http,
      agent: agents[url.protocol === 'https:' ? 'https:' : 'http:'],
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
const looksLikeTimeout = (err: unknown) => /timed? ?out/i.test(String(err) + (err && typeof err === 'object' && 'cause' in err ? String((err as { cause: unknown }).cause) : ''));

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** POST the completion; resolves with the parsed answer, rejects with the SDK's error for the failure. */
export function postChat(config: LlmConfig, params: ChatCompletionCreateParamsNonStreaming, signal?: AbortSignal): Promise<ChatCompletion> {
  const e = endpointFor(config);
  const body = JSON.stringify(params);
  return new Promise<ChatCompletion>((resolve, reject) => {
    if (signal?.aborted) return reject(new APIUserAbortError());
    let settled = false;
    const finish = (err: unknown, value?: ChatCompletion) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve(value!);
    };
    const req = e.transport.request(e.url, { method: 'POST', agent: e.agent, headers: { ...e.headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (err) => finish(connectionError(err)));
      res.on('end', () => {
        const status = res.statusCode ?? 500;
        const text = chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8');
        if (status < 200 || status > 299) {
          const json = safeJson(text);
          return finish(APIError.generate(status, json as object | undefined, json ? undefined : text, toHeaders(res.headers)));
        }
        // As the SDK: JSON when the server says so, else the text (which then has no choices).
        if (!/json/i.test(String(res.headers['content-type'] ?? ''))) return finish(null, text as unknown as ChatCompletion);
        try {
          finish(null, JSON.parse(text) as ChatCompletion);
        } catch (err) {
          finish(err);
        }
      });
    });
    const connectionError = (err: unknown) =>
      signal?.aborted ? new APIUserAbortError() : looksLikeTimeout(err) ? new APIConnectionTimeoutError() : new APIConnectionError({ message: 'Connection error.', cause: err as Error });
    req.on('error', (err) => finish(connectionError(err)));
    const onAbort = () => {
      finish(new APIUserAbortError());
      req.destroy();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => {
      finish(new APIConnectionTimeoutError());
      req.destroy();
    }, e.timeoutMs);
    req.end(body);
  });
}

function toHeaders(h: http.IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out.set(k, Array.isArray(v) ? v.join(', ') : v);
  return out;
}
