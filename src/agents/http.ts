// The built-in `http` agent (docs/agents.md): an agent that lives behind HTTP. Two protocols:
//  - `openai`:   POST a Chat Completions request with the whole conversation so far; the reply is
//                choices[0].message.content (any OpenAI-compatible server, or an agent posing as one).
//  - `benchrig`: POST {session_id, sample, messages}; the answer is an AgentReply JSON (with `contexts`
//                when it retrieved), optionally with `events` (tool calls/results, retrieved contexts
//                the remote agent made), recorded as its trajectory.
// Transient failures (429, 5xx, network, timeout) are retried like the model client's; what still
// fails throws an error naming the URL (never credentials) and the status: the trial is AGENT_ERROR.
import { describeProblem, expandRefs } from '../config/expand.ts';
import { abortReason, causeChain } from '../errors.ts';
import { isRetryable, serverDelayMs, sleep } from '../llm/retry.ts';
import type { NewEvent } from '../types.ts';
import type { Agent, AgentContext, AgentReply, ChatMessage } from './types.ts';

type HttpProtocol = 'openai' | 'benchrig';

interface HttpAgentOptions {
  url: string;
  protocol: HttpProtocol;
  model?: string;
  systemPrompt?: string;
  timeoutMs: number;
  maxRetries: number;
  headers: Record<string, string>;
  apiKey?: string;
  /** Backoff base and cap; a server's retry-after wins (capped). */
  baseMs: number;
  maxMs: number;
}

/** A non-2xx answer; `retryAfterMs` from its retry-after headers. */
class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfterMs: number | null,
  ) {
    super(message);
    this.name = 'HttpStatusError';
  }
}

class AttemptTimeout extends Error {
  constructor(seconds: number) {
    super(`timed out after ${seconds}s`);
    this.name = 'AttemptTimeout';
  }
}

const TRANSIENT_STATUS = (s: number) => s === 408 || s === 409 || s === 429 || s >= 500;

/** `${VAR}` in an option value (e.g. a quoted --agent-opt), by the config's rule: expanded here, never stored expanded. */
export function expandEnv(value: string, env: NodeJS.ProcessEnv = process.env): string {
  const out = expandRefs(value, env);
  if (typeof out !== 'string') throw new Error(`http agent: ${describeProblem(out)}`);
  return out;
}

/** The URL as it may appear in a message: no user:password, no query (keys hide there too). */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '<invalid url>';
  }
}

/** With protocol=openai, a base ending in /v1 (or any base) gets /chat/completions appended. */
export function endpointFor(url: string, protocol: HttpProtocol): string {
  if (protocol !== 'openai' || /\/chat\/completions\/?$/.test(new URL(url).pathname)) return url;
  const u = new URL(url);
  u.pathname = `${u.pathname.replace(/\/+$/, '')}/chat/completions`;
  return u.toString();
}

export function parseOptions(opts: Record<string, unknown>): HttpAgentOptions {
  const str = (k: string) => (typeof opts[k] === 'string' && opts[k] !== '' ? expandEnv(opts[k]) : undefined);
  const num = (k: string, dflt: number, min = 0) => {
    const v = opts[k] === undefined ? dflt : Number(opts[k]); // --agent-opt values may arrive as strings
    if (!Number.isFinite(v) || v < min) throw new Error(`http agent: option ${k} must be a number >= ${min}`);
    return v;
  };
  const url = str('url');
  if (!url) throw new Error('http agent: set the endpoint with --agent-opt url=http://host:port/...');
  try {
    new URL(url);
  } catch {
    throw new Error(`http agent: option url is not a URL: ${displayUrl(url)}`);
  }
  const protocol = str('protocol') ?? 'openai';
  if (protocol !== 'openai' && protocol !== 'benchrig')
    throw new Error(`http agent: protocol must be openai or benchrig, got "${protocol}"`);
  let headers: unknown = opts.headers ?? {};
  if (typeof headers === 'string') {
    try {
      headers = JSON.parse(headers) as unknown;
    } catch {
      throw new Error('http agent: option headers must be a JSON object');
    }
  }
  if (!headers || typeof headers !== 'object' || Array.isArray(headers))
    throw new Error('http agent: option headers must be an object');
  return {
    url: endpointFor(url, protocol),
    protocol,
    model: str('model'),
    systemPrompt: str('system_prompt'),
    timeoutMs: num('timeout_s', 120) * 1000,
    maxRetries: Math.floor(num('max_retries', 3)),
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, expandEnv(String(v))])),
    apiKey: str('api_key'),
    baseMs: num('retry_base_ms', 500),
    maxMs: num('retry_max_ms', 30_000),
  };
}

/** One POST with its own deadline; a non-2xx answer becomes HttpStatusError. */
async function postOnce(o: HttpAgentOptions, body: unknown, signal: AbortSignal): Promise<unknown> {
  const timeout = AbortSignal.timeout(o.timeoutMs);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
    ...o.headers,
  };
  if (o.apiKey) headers.authorization = `Bearer ${o.apiKey}`;
  try {
    const res = await fetch(o.url, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.any([signal, timeout]),
    });
    const text = await res.text();
    if (!res.ok) {
      const snippet = text.replace(/\s+/g, ' ').trim().slice(0, 200);
      throw new HttpStatusError(
        res.status,
        `HTTP ${res.status}${snippet ? `: ${snippet}` : ''}`,
        serverDelayMs(res.headers),
      );
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new Error(`the answer is not JSON: ${text.slice(0, 120)}`);
    }
  } catch (err) {
    if (timeout.aborted && !signal.aborted) throw new AttemptTimeout(o.timeoutMs / 1000);
    throw err;
  }
}

const transient = (err: unknown) =>
  err instanceof HttpStatusError ? TRANSIENT_STATUS(err.status) : err instanceof AttemptTimeout || isRetryable(err);

/** POST with retries; the final error names the URL and the cause. */
async function post(o: HttpAgentOptions, body: unknown, signal: AbortSignal): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    if (signal.aborted) throw abortReason(signal);
    try {
      return await postOnce(o, body, signal);
    } catch (err) {
      if (signal.aborted) throw abortReason(signal);
      if (attempt >= o.maxRetries || !transient(err)) {
        const tries = `${attempt + 1} attempt${attempt === 0 ? '' : 's'}`;
        throw new Error(
          `http agent: POST ${displayUrl(o.url)} failed after ${tries}: ${scrub(causeChain(err, 4), secretsOf(o))}`,
        );
      }
      const asked = err instanceof HttpStatusError ? err.retryAfterMs : null;
      const delay =
        asked !== null
          ? Math.min(asked, o.maxMs)
          : Math.floor(Math.random() * Math.min(o.maxMs, o.baseMs * 2 ** attempt));
      await sleep(delay, signal);
    }
  }
}

/**
 * What the request carried that an error must not repeat (a server may echo a header back in its
 * error body, and the error lands in the result file and the log): the API key, every header
 * value, and the parts of one (`session=<token>` echoed as just the token). Longest first.
 */
export function secretsOf(o: Pick<HttpAgentOptions, 'apiKey' | 'headers'>): string[] {
  const out = new Set<string>();
  if (o.apiKey && o.apiKey.length >= 4) out.add(o.apiKey);
  // Short values (`json`, a team name) would blank out common words, and are no secrets anyway.
  for (const value of Object.values(o.headers))
    for (const part of [value, ...value.split(/[\s;,=:]+/)]) if (part.length >= 8) out.add(part);
  return [...out].sort((a, b) => b.length - a.length);
}

export const scrub = (text: string, secrets: string[]) => secrets.reduce((t, s) => t.split(s).join('***'), text);

const TRAJECTORY_TYPES = new Set(['tool_call', 'tool_result', 'log', 'retrieved']);

/** The remote agent's own tool calls and results; anything else (or malformed) is skipped. */
export function remoteEvents(events: unknown): NewEvent[] {
  if (!Array.isArray(events)) return [];
  return events
    .filter((e: unknown): e is NewEvent & { step?: unknown; ts?: unknown } => {
      if (!e || typeof e !== 'object') return false;
      const ev = e as Record<string, unknown>;
      if (typeof ev.type !== 'string' || !TRAJECTORY_TYPES.has(ev.type)) return false;
      if (ev.type === 'tool_call') return typeof ev.tool === 'string' && !!ev.args && typeof ev.args === 'object';
      if (ev.type === 'tool_result') return typeof ev.tool === 'string' && typeof ev.output === 'string';
      if (ev.type === 'retrieved') return true; // checked, bounded and rebuilt by ctx.record (trial/contexts.ts)
      return typeof ev.message === 'string';
    })
    .map(({ step: _s, ts: _t, ...rest }): NewEvent => rest);
}

function benchrigReply(body: unknown, url: string): AgentReply & { events?: unknown } {
  const b = body as Record<string, unknown> | null;
  if (!b || typeof b !== 'object' || typeof b.content !== 'string')
    throw new Error(`http agent: ${displayUrl(url)} answered without a string "content" (expected an AgentReply JSON)`);
  const reply: AgentReply & { events?: unknown } = { content: b.content };
  if (typeof b.done === 'boolean') reply.done = b.done;
  if (typeof b.blocked === 'boolean') reply.blocked = b.blocked;
  if (b.state && typeof b.state === 'object' && !Array.isArray(b.state))
    reply.state = b.state as Record<string, unknown>;
  if (b.events !== undefined) reply.events = b.events;
  // checked and bounded by the trial (trial/contexts.ts): a malformed list is the agent's error
  if (b.contexts !== undefined) reply.contexts = b.contexts as AgentReply['contexts'];
  return reply;
}

/** A field of a parsed JSON value; undefined when the value is not an object. */
const field = (v: unknown, key: string): unknown =>
  v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;

function openaiContent(body: unknown, url: string): string {
  const msg = field(field(field(body, 'choices'), '0'), 'message');
  if (!msg || typeof msg !== 'object')
    throw new Error(`http agent: ${displayUrl(url)} answered without choices[0].message`);
  const c = field(msg, 'content');
  if (typeof c === 'string') return c;
  if (Array.isArray(c))
    return c
      .map((p: unknown) => {
        const text = field(p, 'text');
        return typeof text === 'string' ? text : '';
      })
      .join('');
  return '';
}

export function createHttpAgent(ctx: AgentContext): Agent {
  const o = parseOptions(ctx.options);
  // The conversation as the remote side sees it: user messages and its own replies.
  const messages: ChatMessage[] = o.systemPrompt ? [{ role: 'system', content: o.systemPrompt }] : [];

  async function respond(message: string): Promise<AgentReply> {
    messages.push({ role: 'user', content: message });
    let reply: AgentReply;
    if (o.protocol === 'openai') {
      const body = await post(o, { ...(o.model ? { model: o.model } : {}), messages }, ctx.signal);
      reply = { content: openaiContent(body, o.url) };
    } else {
      const body = await post(o, { session_id: ctx.sessionId, sample: ctx.sample, messages }, ctx.signal);
      const { events, ...rest } = benchrigReply(body, o.url);
      for (const e of remoteEvents(events)) ctx.record(e);
      reply = rest;
    }
    messages.push({ role: 'assistant', content: reply.content });
    return reply;
  }

  return { respond };
}

export default createHttpAgent;
