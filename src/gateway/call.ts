// One model call through the gateway, after the token and the budget were checked: the cache, the
// upstream, the answer passed to the agent byte for byte (streamed as it arrives), and the record —
// one `llm_call` event, then a `tool_call` event per tool call the model asked for.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Scrubber } from '../config/scrub.ts';
import { LlmCache, replayMissMessage, type CacheMode } from '../llm/cache.ts';
import { endpointFailed, endpointStatus } from '../llm/outage.ts';
import { priceCall } from '../llm/prices.ts';
import { gatewayCacheKey } from './cache-key.ts';
import { sendError } from './error-body.ts';
import { describeFailure, eachChunk, forward, readBody, upstreamHeaders } from './forward.ts';
import { fieldValue, withFields, withModel } from './json-fields.ts';
import { READERS, type CallSummary } from './protocols.ts';
import { SseReader } from './sse.ts';
import { askForUsage, usageFilter, withoutUsageChunk } from './stream-usage.ts';
import { gatewayCall, streamAnswer, wholeAnswer, type AnswerAssembler } from './transcript.ts';
import type { TrialEntry } from './tokens.ts';
import type { Protocol, Upstream } from './types.ts';
import { upstreamUrl } from './upstreams.ts';
import type { Json, Translation } from './translate/index.ts';
import type { CallTranscript, NewEvent } from '../types.ts';

/**
 * What `--llm-cache record` stores for a gateway call: the answer as the agent got it, but for the
 * usage chunk the gateway asked for (stream-usage.ts), which is kept and left out when replayed.
 */
interface StoredAnswer {
  gateway: 1;
  status: number;
  content_type: string;
  stream: boolean;
  body: string;
}

export interface CallContext {
  protocol: Protocol;
  /** The path after /v1: `/messages`, `/messages/count_tokens`… */
  route: string;
  search: string;
  upstream: Upstream;
  /** Set when the upstream speaks another API than the agent (docs/agents.md#translation). */
  translation: Translation | null;
  entry: TrialEntry;
  /** The request body as the agent sent it, and where its top-level fields are (json-fields.ts). */
  raw: Buffer;
  fields: Map<string, [number, number]>;
  req: IncomingMessage;
  res: ServerResponse;
  /** false for count_tokens: answered and cached, but not a model call. */
  recorded: boolean;
  /** `scrub`: the upstream keys, which no cache entry (nor its file name) may hold. */
  cache: { mode: CacheMode; store: LlmCache; scrub: Scrubber } | null;
  retry?: { baseMs?: number; maxMs?: number };
  signal: AbortSignal;
}

const ZERO: CallSummary = { tokens: { input: 0, output: 0 }, toolCalls: [] };

/** The transcript's part of a call (made only when the trial keeps transcripts): the answer, or the failure. */
type Part = () => { output?: CallTranscript['output']; error?: CallTranscript['error'] };

/** `fatal`: no answer for the agent; `endpoint`: the endpoint's failure (llm/outage.ts). */
type Record_ = (
  summary: CallSummary,
  latency: number,
  error?: string,
  fatal?: boolean,
  endpoint?: boolean,
  part?: Part,
) => void;

/** Whether a forward that threw failed for the endpoint's reasons: every forward names the run's model. */
const endpointThrew = (c: CallContext, err: unknown) =>
  !c.signal.aborted && endpointFailed(err, c.upstream.model, c.upstream.model);

/** The cache's part of one call: the request parsed (only the cache needs it whole) and its key. */
interface CacheSlot {
  cache: NonNullable<CallContext['cache']>;
  key: string;
  request: Record<string, unknown>;
}

export async function handleCall(c: CallContext): Promise<void> {
  const { upstream } = c;
  const asked = withModel(c.raw, c.fields, upstream.model); // the run's model, whatever the CLI asked for (docs/agents.md#the-model-gateway)
  const t = c.translation;
  const stream = fieldValue(c.raw, c.fields, 'stream') === true;
  const usage =
    !t && stream && c.protocol === 'chat' ? askForUsage(fieldValue(c.raw, c.fields, 'stream_options')) : null;
  // Translated: the Chat Completions request, and none of the agent's headers (they are its API's).
  const payload = t
    ? Buffer.from(JSON.stringify({ model: upstream.model, ...t.request }))
    : usage
      ? withFields(c.raw, c.fields, { model: upstream.model, stream_options: usage })
      : asked;
  const strip = usage !== null; // the agent did not ask for the usage chunk: it does not get it
  const started = performance.now();
  const record = recorder(c, stream);
  const slot = cacheSlot(c, asked);
  if (slot && (await answerFromCache(c, slot, record, strip))) return;

  let up: IncomingMessage;
  try {
    up = await forward(
      upstream,
      t ? upstreamUrl(upstream, '/chat/completions', '') : upstreamUrl(upstream, c.route, c.search),
      upstreamHeaders(upstream, t ? {} : c.req.headers, payload),
      payload,
      { signal: c.signal, retry: c.retry },
    );
  } catch (err) {
    const cause = c.signal.aborted ? 'the agent closed the connection' : describeFailure(err, upstream.apiKey);
    record(ZERO, performance.now() - started, cause, !c.signal.aborted, endpointThrew(c, err));
    sendError(
      c.res,
      c.protocol,
      502,
      'upstream_error',
      `benchrig gateway: the model ${upstream.model} failed: ${cause}`,
    );
    return;
  }

  const status = up.statusCode ?? 502;
  const contentType = String(up.headers['content-type'] ?? 'application/json');
  const ok = status >= 200 && status < 300;
  if (ok && /^text\/event-stream/i.test(contentType))
    await relayStream(c, up, { status, contentType, started, strip }, slot, record);
  else await relayWhole(c, up, { status, contentType, started }, slot, record);
}

/**
 * The record of one call. `fatal`: the gateway could not get an answer (upstream down after retries,
 * replay miss, a broken stream) and the trial's CLI is stopped; an answer the agent got, an error
 * included, is not. `endpoint`: the endpoint failed it (told to the trial, fatal or not).
 */
function recorder(c: CallContext, stream: boolean): Record_ {
  const startedAt = new Date();
  return (summary, latency, error = summary.error, fatal = false, endpoint = false, part) => {
    if (!c.recorded) return;
    const { trial, usage } = c.entry;
    usage.calls++;
    usage.tokens.input += summary.tokens.input;
    usage.tokens.output += summary.tokens.output;
    const priced = priceCall(
      summary.tokens,
      { answered: summary.model, configured: c.upstream.model },
      c.upstream.price,
    );
    const event: NewEvent = {
      type: 'llm_call',
      model: c.upstream.model,
      ...(summary.model && summary.model !== c.upstream.model ? { response_model: summary.model } : {}),
      latency_ms: Math.round(latency),
      tokens: { ...summary.tokens },
      cost_usd: priced.cost_usd,
      role: 'agent',
      api: c.protocol,
      upstream_api: c.upstream.protocol,
      stream,
      ...(error ? { error } : {}),
    };
    if (trial.onCall) {
      const p = part?.() ?? {};
      const failure = p.error ?? (error ? { body: error } : undefined);
      // The usage as the gateway counted it, where the answer itself says none (a stream without it).
      const output = p.output && { ...p.output, usage: p.output.usage ?? { ...summary.tokens } };
      trial.onCall(event, gatewayCall(c.protocol, c.raw, startedAt, output ?? null, failure));
    } else trial.onEvent(event);
    for (const t of summary.toolCalls)
      trial.onEvent({ type: 'tool_call', tool: t.name, args: t.args, ...(t.id ? { id: t.id } : {}) });
    if (error && endpoint) trial.onEndpointFailure?.(error);
    if (error && fatal) trial.onModelError?.(error, endpoint);
  };
}

function cacheSlot(c: CallContext, payload: Buffer): CacheSlot | null {
  if (!c.cache) return null;
  const request = JSON.parse(payload.toString('utf8')) as Record<string, unknown>;
  return {
    cache: c.cache,
    request,
    key: gatewayCacheKey(c.route, c.cache.scrub.value(request), c.entry.trial.cacheScope, c.entry.trial.volatile),
  };
}

/** A stored answer sent as it was stored, or a replay miss refused: true when the call is answered. */
async function answerFromCache(c: CallContext, slot: CacheSlot, record: Record_, strip: boolean): Promise<boolean> {
  const hit = await slot.cache.store.get<StoredAnswer>(slot.key);
  if (hit && hit.response.gateway === 1) {
    const a = hit.response;
    record(summarize(c.protocol, a.stream, a.body), hit.latency_ms, undefined, false, false, () => ({
      output: a.stream ? assembleStream(c.protocol, a.body) : wholeAnswer(c.protocol, a.body),
    }));
    c.res.writeHead(a.status, {
      'content-type': a.content_type,
      ...(a.stream ? { 'cache-control': 'no-cache' } : { 'content-length': Buffer.byteLength(a.body) }),
    });
    c.res.end(a.stream && strip ? withoutUsageChunk(a.body) : a.body);
    return true;
  }
  if (slot.cache.mode === 'replay') {
    const message = replayMissMessage(slot.key, c.upstream.model);
    record(ZERO, 0, message, true);
    sendError(c.res, c.protocol, 400, 'llm_cache_miss', message);
    return true;
  }
  return false;
}

interface Answer {
  status: number;
  contentType: string;
  started: number;
  /** Leave out the usage chunk the gateway asked for (stream-usage.ts). */
  strip?: boolean;
}

/** A streamed answer: passed to the agent chunk by chunk as it arrives, watched, then recorded. */
async function relayStream(
  c: CallContext,
  up: IncomingMessage,
  a: Answer,
  slot: CacheSlot | null,
  record: Record_,
): Promise<void> {
  const { res, upstream } = c;
  const contentType = c.translation ? 'text/event-stream' : a.contentType;
  res.writeHead(a.status, { 'content-type': contentType, 'cache-control': 'no-cache' });
  const watcher = READERS[c.protocol].stream();
  const answer: AnswerAssembler | null = c.entry.trial.onCall ? streamAnswer(c.protocol) : null;
  const observe = (e: Parameters<typeof watcher.event>[0]) => (watcher.event(e), answer?.event(e));
  // Watched (and kept for the cache) whole; with `strip`, passed on event by event but the usage chunk.
  const sse = a.strip ? usageFilter((raw) => res.write(raw), observe) : new SseReader(observe);
  const kept: Buffer[] = [];
  const send = (chunk: Buffer) => {
    if (!chunk.length) return;
    if (!a.strip) res.write(chunk);
    sse.push(chunk);
    if (slot) kept.push(chunk);
  };
  // Translated: each upstream event, scrubbed of the key, becomes the agent's API's events.
  const translator = c.translation?.stream();
  const upstreamSse =
    translator && new SseReader((e) => send(Buffer.from(translator.event(scrubText(e.data, upstream.apiKey)))));
  let failure: string | undefined;
  let fatal = false;
  let broken = false;
  try {
    await eachChunk(up, (chunk) => (upstreamSse ? upstreamSse.push(chunk) : send(chunk)));
    if (translator && upstreamSse) {
      upstreamSse.end();
      send(Buffer.from(translator.end()));
    }
    sse.end();
  } catch (err) {
    fatal = !c.signal.aborted;
    failure = fatal ? `the stream broke: ${describeFailure(err, upstream.apiKey)}` : 'the agent closed the connection';
    broken = endpointThrew(c, err);
  }
  const latency = performance.now() - a.started;
  const summary = watcher.summary();
  record(summary, latency, failure ?? summary.error, fatal, broken, () => ({ output: answer?.output() ?? null }));
  if (!failure && !summary.error && slot) {
    const body = Buffer.concat(kept).toString('utf8');
    const { scrub } = slot.cache;
    // A key echoed in pieces cannot be scrubbed out of the stored events: such an answer is not stored.
    if (
      scrub.holds(body) ||
      scrub.holds(watcher.text()) ||
      summary.toolCalls.some((t) => scrub.holds(JSON.stringify(t.args)))
    ) {
      c.entry.trial.onEvent({
        type: 'log',
        level: 'warn',
        message: `llm-cache: not stored ${slot.key}: the answer holds the upstream key`,
      });
    } else
      await store(c, slot, { gateway: 1, status: a.status, content_type: contentType, stream: true, body }, latency);
  }
  res.end();
}

/** A whole answer: read, scrubbed of the key, recorded (and stored), then passed to the agent. */
async function relayWhole(
  c: CallContext,
  up: IncomingMessage,
  a: Answer,
  slot: CacheSlot | null,
  record: Record_,
): Promise<void> {
  const { res, upstream } = c;
  let text: Buffer;
  let status = a.status;
  try {
    text = await readBody(up);
  } catch (err) {
    const cause = describeFailure(err, upstream.apiKey);
    record(ZERO, performance.now() - a.started, cause, true, endpointThrew(c, err));
    sendError(res, c.protocol, 502, 'upstream_error', `benchrig gateway: the model ${upstream.model} failed: ${cause}`);
    return;
  }
  const latency = performance.now() - a.started;
  let scrubbed = scrub(text, upstream.apiKey);
  const upstreamText = scrubbed;
  if (c.translation) [status, scrubbed] = translateWhole(c.translation, status, scrubbed);
  const contentType = c.translation ? 'application/json' : a.contentType;
  // Recorded (and stored) before the agent has the answer: a trial that ends when its agent exits
  // has every event of it, and a replay right after a record finds every answer.
  if (status < 200 || status >= 300) {
    // The upstream's own refusal (context too long, bad key): the agent sees it, the trial records it;
    // a key refused or the run's model not found is the endpoint's (every forward names the run's model).
    record(ZERO, latency, `HTTP ${status}: ${errorMessage(scrubbed)}`, false, endpointStatus(a.status, true), () => ({
      error: { status, body: upstreamText.toString('utf8') },
    }));
  } else {
    const summary = summarize(c.protocol, false, scrubbed.toString('utf8'));
    record(summary, latency, undefined, false, false, () => ({
      output: wholeAnswer(c.protocol, scrubbed.toString('utf8')),
    }));
    if (slot && !summary.error)
      await store(
        c,
        slot,
        { gateway: 1, status, content_type: contentType, stream: false, body: scrubbed.toString('utf8') },
        latency,
      );
  }
  res.writeHead(status, { 'content-type': contentType, 'content-length': scrubbed.length });
  res.end(scrubbed);
}

function summarize(protocol: Protocol, stream: boolean, body: string): CallSummary {
  const reader = READERS[protocol];
  if (!stream) {
    try {
      return reader.fromJson(JSON.parse(body));
    } catch {
      return ZERO;
    }
  }
  const watcher = reader.stream();
  const sse = new SseReader((e) => watcher.event(e));
  sse.push(Buffer.from(body));
  sse.end();
  return watcher.summary();
}

/** A stored stream (SSE text) as the transcript's answer. */
function assembleStream(protocol: Protocol, body: string): CallTranscript['output'] {
  const answer = streamAnswer(protocol);
  const sse = new SseReader((e) => answer.event(e));
  sse.push(Buffer.from(body));
  sse.end();
  return answer.output();
}

async function store(c: CallContext, slot: CacheSlot, answer: StoredAnswer, latency: number): Promise<void> {
  const { key, request } = slot;
  try {
    await slot.cache.store.put<StoredAnswer, Record<string, unknown>>({
      key,
      model: c.upstream.model,
      latency_ms: Math.round(latency),
      response: answer,
      request: { gateway: c.route, ...request },
    });
  } catch (err) {
    c.entry.trial.onEvent({
      type: 'log',
      level: 'warn',
      message: `llm-cache: could not store ${key}: ${(err as Error).message}`,
    });
  }
}

function errorMessage(body: Buffer): string {
  try {
    const j = JSON.parse(body.toString('utf8')) as { error?: { message?: unknown }; message?: unknown } | null;
    const m = j?.error?.message ?? j?.message;
    if (typeof m === 'string') return m.slice(0, 500);
  } catch {
    /* not JSON */
  }
  return body.toString('utf8').slice(0, 200);
}

/** An upstream's whole answer in the agent's API: an error in its error shape, an answer not JSON as an error too. */
function translateWhole(t: Translation, status: number, body: Buffer): [number, Buffer] {
  const json = (v: unknown) => Buffer.from(JSON.stringify(v));
  const text = body.toString('utf8');
  if (status < 200 || status >= 300) return [status, json(t.error(status, text))];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return [502, json(t.error(502, `benchrig gateway: the upstream's answer is not JSON: ${text.slice(0, 200)}`))];
  return [status, json(t.answer(parsed as Json))];
}

const scrubText = (text: string, apiKey: string): string =>
  apiKey && apiKey.length >= 4 && text.includes(apiKey) ? text.split(apiKey).join('***') : text;

/** A server may echo the key back (in an error text): it never reaches the agent. */
function scrub(body: Buffer, apiKey: string): Buffer {
  if (!apiKey || apiKey.length < 4 || !body.includes(apiKey)) return body;
  return Buffer.from(body.toString('utf8').split(apiKey).join('***'));
}
