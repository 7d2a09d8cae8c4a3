// One request to the upstream, with the run's retries (docs/agents.md#the-conversation: 429, 5xx, network errors) done here,
// before the agent sees anything: every CLI would otherwise retry on its own, and each of its retries
// would be a new call against the trial's budget. The upstream key is set here and nowhere else; of
// the agent's headers only the protocol's version and beta switches are passed on.
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { APIError } from 'openai/error';
import { causeChain } from '../errors.ts';
import { withRetry } from '../llm/retry.ts';
import type { Upstream } from './types.ts';

const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

const PASSED_HEADERS = ['accept', 'anthropic-version', 'anthropic-beta', 'openai-beta'];

export function upstreamHeaders(u: Upstream, client: IncomingHttpHeaders, body: Buffer): Record<string, string> {
  const h: Record<string, string> = {
    'content-type': 'application/json',
    'content-length': String(body.length),
    'user-agent': 'benchrig-gateway',
  };
  for (const k of PASSED_HEADERS) {
    const v = client[k];
    if (typeof v === 'string') h[k] = v;
  }
  if (u.protocol === 'messages') {
    h['anthropic-version'] ??= '2023-06-01';
    if (u.apiKey) h['x-api-key'] = u.apiKey;
  } else if (u.apiKey) h.authorization = `Bearer ${u.apiKey}`;
  return h;
}

interface ForwardOptions {
  signal: AbortSignal;
  retry?: { baseMs?: number; maxMs?: number };
}

/**
 * The upstream's response once it is final: a success, or an error that retrying cannot help
 * (a 400 from the upstream goes back to the agent as it is). Throws after the retries run out.
 */
export function forward(
  u: Upstream,
  url: URL,
  headers: Record<string, string>,
  body: Buffer,
  opts: ForwardOptions,
): Promise<IncomingMessage> {
  return withRetry(() => attempt(u, url, headers, body, opts.signal), {
    maxRetries: u.maxRetries,
    baseMs: opts.retry?.baseMs,
    maxMs: opts.retry?.maxMs,
    signal: opts.signal,
  });
}

const transient = (status: number) => status === 408 || status === 409 || status === 429 || status >= 500;

function attempt(
  u: Upstream,
  url: URL,
  headers: Record<string, string>,
  body: Buffer,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(
      url,
      { method: 'POST', headers, agent: agents[url.protocol as 'http:' | 'https:'], signal },
      (res) => {
        const status = res.statusCode ?? 502;
        if (!transient(status)) return resolve(res);
        // A transient status: read the error for the message and retry-after, then let withRetry decide.
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: { error?: { message?: unknown } } | null | undefined;
          try {
            parsed = JSON.parse(text) as typeof parsed;
          } catch {
            parsed = undefined;
          }
          const said = parsed?.error?.message;
          const message = typeof said === 'string' ? said : text.slice(0, 200) || res.statusMessage;
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
          reject(new APIError(status, parsed?.error ?? parsed ?? undefined, String(message), h));
        });
      },
    );
    // Inactivity on the socket, before the headers or between stream chunks.
    req.setTimeout(u.timeoutMs, () =>
      req.destroy(Object.assign(new Error(`no answer for ${u.timeoutMs / 1000}s`), { code: 'ETIMEDOUT' })),
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Every chunk of a message to `onChunk`; resolves at its end, rejects if it breaks off. Events, not
 * `for await`: the async iterator cost ~0.05 ms a call on the gateway's hot path (profiled).
 */
export function eachChunk(msg: IncomingMessage, onChunk: (c: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    msg.on('data', onChunk);
    msg.once('end', resolve);
    msg.once('error', reject);
    msg.once('close', () => msg.readableEnded || reject(new Error('the connection closed before the end of the body')));
  });
}

/** The whole body of a message; null past `max` bytes (the rest is drained, not kept). */
export async function readBody(msg: IncomingMessage): Promise<Buffer>;
export async function readBody(msg: IncomingMessage, max: number): Promise<Buffer | null>;
export async function readBody(msg: IncomingMessage, max = Infinity): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  await eachChunk(msg, (c) => {
    size += c.length;
    if (size <= max) chunks.push(c);
  });
  return size > max ? null : Buffer.concat(chunks, size);
}

/** One line naming why a forward failed, without the key (defence in depth: servers echo things). */
export function describeFailure(err: unknown, apiKey: string): string {
  let text: string;
  if (err instanceof APIError && err.status !== undefined)
    text = `HTTP ${err.status}: ${err.message.replace(/^\d+\s*/, '')}`;
  else text = `connection error: ${causeChain(err, 4)}`;
  return apiKey && apiKey.length >= 4 ? text.split(apiKey).join('***') : text;
}
