// A scripted model server on 127.0.0.1 that speaks the three wire APIs the gateway forwards — OpenAI
// Chat Completions, OpenAI Responses, Anthropic Messages (+ count_tokens) — whole or streamed (SSE),
// in each API's real framing, so the official clients parse its answers. Never a real model.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { flatHeaders, readJson } from './http.ts';

export type Api = 'chat' | 'responses' | 'messages';

export interface UpstreamReply {
  text?: string;
  /** `id`: the call's id (default `call_<i>` / `toolu_<i>`: the same in every answer). */
  tool_calls?: { name: string; arguments: Record<string, unknown>; id?: string }[];
  /** `cached`: of `input`, read from the prompt cache (Chat Completions' prompt_tokens_details.cached_tokens). */
  usage?: { input: number; output: number; cached?: number };
  /** Before the answer starts. */
  delayMs?: number;
  /** Between streamed events: a slow stream, for hang-ups mid-answer. */
  chunkDelayMs?: number;
  /** Messages API, streamed: an `error` event right after message_start (Anthropic's overloaded mid-stream). */
  streamError?: string;
}
export interface UpstreamError {
  status: number;
  message?: string;
  retryAfterMs?: number;
}
export type UpstreamStep = UpstreamReply | UpstreamError;

export interface UpstreamRequest {
  api: Api | 'count_tokens';
  path: string;
  headers: Record<string, string>;
  body: UpstreamBody;
}

/** A request body as the upstream records it: the JSON the client sent, in whichever API it speaks. */
export interface UpstreamBody {
  model?: string;
  /** Chat and Messages: the conversation (a Messages content is text or blocks). */
  messages?: { role: string; content: unknown; [key: string]: unknown }[];
  /** Responses: text or input items. */
  input?: string | unknown[];
  tools?: unknown[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
}

export interface UpstreamServer {
  /** `http://127.0.0.1:PORT/v1`: the base_url of every protocol's table. */
  url: string;
  requests: UpstreamRequest[];
  /** Answers the client hung up on before their end. */
  readonly hangups: number;
  /** The default: a text answer echoing the call number, 7 input and 3 output tokens. */
  setScript(fn: (req: UpstreamRequest, n: number) => UpstreamStep): void;
  close(): Promise<void>;
}

const ROUTES: Record<string, UpstreamRequest['api']> = {
  '/v1/chat/completions': 'chat',
  '/v1/responses': 'responses',
  '/v1/messages': 'messages',
  '/v1/messages/count_tokens': 'count_tokens',
};

/** `apis`: the wire APIs it speaks (default all three); the others' routes answer 404, as a Chat-Completions-only server (vLLM, Ollama) does. */
export async function startUpstreamServer(
  opts: { keepRequests?: boolean; apis?: Api[] } = {},
): Promise<UpstreamServer> {
  const requests: UpstreamRequest[] = [];
  let served = 0;
  let hangups = 0;
  let script = (_r: UpstreamRequest, n: number): UpstreamStep => ({
    text: `answer ${n}`,
    usage: { input: 7, output: 3 },
  });
  const sockets = new Set<Socket>();
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = (await readJson(req)) as UpstreamBody; // every client here sends a JSON object
    const path = (req.url ?? '').split('?')[0];
    const route = ROUTES[path];
    const spoken = (a: Api) => !opts.apis || opts.apis.includes(a);
    const api = route && spoken(route === 'count_tokens' ? 'messages' : route) ? route : undefined;
    if (req.method === 'GET' && path === '/v1/models')
      return json(res, 200, { object: 'list', data: [{ id: 'upstream-model', object: 'model' }] });
    if (!api || req.method !== 'POST')
      return json(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
    res.on('close', () => void (res.writableFinished || hangups++));
    const rec: UpstreamRequest = { api, path: req.url ?? '', headers: flatHeaders(req), body };
    if (opts.keepRequests !== false) requests.push(rec); // the perf loop keeps none: it sends thousands
    if (api === 'count_tokens') return json(res, 200, { input_tokens: JSON.stringify(body?.messages ?? []).length });
    const step = script(rec, ++served);
    if ('status' in step) {
      const headers: Record<string, string> =
        step.retryAfterMs !== undefined ? { 'retry-after-ms': String(step.retryAfterMs) } : {};
      const message = step.message ?? `scripted error ${step.status}`;
      return json(
        res,
        step.status,
        api === 'messages'
          ? { type: 'error', error: { type: 'api_error', message } }
          : { error: { message, type: 'scripted' } },
        headers,
      );
    }
    if (step.delayMs) await new Promise((r) => setTimeout(r, step.delayMs));
    if (res.destroyed) return;
    const stream = body?.stream === true;
    const answer = { chat, responses, messages }[api];
    answer(res, body, step, stream);
  };
  const server = createServer((req, res) => void handle(req, res));
  server.keepAliveTimeout = 30_000;
  server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    get hangups() {
      return hangups;
    },
    setScript: (fn) => (script = fn),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sse(res: ServerResponse, events: { event?: string; data: unknown }[], chunkDelayMs = 0): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const text = (e: { event?: string; data: unknown }) =>
    `${e.event ? `event: ${e.event}\n` : ''}data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`;
  if (!chunkDelayMs) {
    for (const e of events) res.write(text(e));
    return void res.end();
  }
  let i = 0;
  const tick = () => {
    if (res.destroyed) return;
    if (i === events.length) return void res.end();
    res.write(text(events[i++]));
    setTimeout(tick, chunkDelayMs);
  };
  tick();
}

const usageOf = (s: UpstreamReply) => s.usage ?? { input: 7, output: 3 };
/** Split a string in two, so clients must join streamed pieces. */
const halves = (s: string) => [s.slice(0, Math.ceil(s.length / 2)), s.slice(Math.ceil(s.length / 2))];

function chat(res: ServerResponse, body: UpstreamBody, s: UpstreamReply, stream: boolean): void {
  // `n` completions, as OpenAI answers them: one choice each, completion_tokens their sum.
  const n = typeof body?.n === 'number' && body.n > 1 ? body.n : 1;
  const one = usageOf(s);
  const u = { ...one, output: one.output * n };
  const calls = (s.tool_calls ?? []).map((t, i) => ({
    id: t.id ?? `call_${i}`,
    type: 'function',
    function: { name: t.name, arguments: JSON.stringify(t.arguments) },
  }));
  const usage = {
    prompt_tokens: u.input,
    completion_tokens: u.output,
    total_tokens: u.input + u.output,
    ...(u.cached ? { prompt_tokens_details: { cached_tokens: u.cached } } : {}),
  };
  const base = { id: 'chatcmpl-1', created: 1, model: body?.model ?? 'm' };
  const finish = calls.length ? 'tool_calls' : 'stop';
  if (!stream) {
    return json(res, 200, {
      ...base,
      object: 'chat.completion',
      usage,
      choices: Array.from({ length: n }, (_, index) => ({
        index,
        finish_reason: finish,
        logprobs: null,
        message: {
          role: 'assistant',
          content: s.text ?? null,
          refusal: null,
          ...(calls.length ? { tool_calls: calls } : {}),
        },
      })),
    });
  }
  const events: { data: unknown }[] = [];
  for (let choice = 0; choice < n; choice++) {
    const chunk = (delta: unknown, finish_reason: string | null = null) => ({
      data: {
        ...base,
        object: 'chat.completion.chunk',
        choices: [{ index: choice, delta, finish_reason, logprobs: null }],
      },
    });
    events.push(chunk({ role: 'assistant', content: '' }));
    for (const piece of s.text ? halves(s.text) : []) events.push(chunk({ content: piece }));
    calls.forEach((c, index) => {
      const [a, b] = halves(c.function.arguments);
      events.push(
        chunk({
          tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: a } }],
        }),
      );
      events.push(chunk({ tool_calls: [{ index, function: { arguments: b } }] }));
    });
    events.push(chunk({}, finish));
  }
  if (body?.stream_options?.include_usage)
    events.push({ data: { ...base, object: 'chat.completion.chunk', choices: [], usage } });
  sse(res, [...events, { data: '[DONE]' }], s.chunkDelayMs);
}

/** An output item of a Responses answer. */
type ResponsesItem =
  | {
      type: 'message';
      id: string;
      status: string;
      role: string;
      content: { type: string; text: string; annotations: unknown[] }[];
    }
  | { type: 'function_call'; id: string; call_id: string; name: string; arguments: string; status: string };

function responses(res: ServerResponse, body: UpstreamBody, s: UpstreamReply, stream: boolean): void {
  const u = usageOf(s);
  const output: ResponsesItem[] = [];
  if (s.text)
    output.push({
      type: 'message',
      id: 'msg_1',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: s.text, annotations: [] }],
    });
  (s.tool_calls ?? []).forEach((t, i) =>
    output.push({
      type: 'function_call',
      id: `fc_${i}`,
      call_id: t.id ?? `call_${i}`,
      name: t.name,
      arguments: JSON.stringify(t.arguments),
      status: 'completed',
    }),
  );
  const usage = {
    input_tokens: u.input,
    output_tokens: u.output,
    total_tokens: u.input + u.output,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens_details: { reasoning_tokens: 0 },
  };
  const full = {
    id: 'resp_1',
    object: 'response',
    created_at: 1,
    status: 'completed',
    model: body?.model ?? 'm',
    output,
    usage,
    error: null,
    incomplete_details: null,
  };
  if (!stream) return json(res, 200, full);
  let seq = 0;
  const ev = (type: string, rest: object) => ({ event: type, data: { type, sequence_number: seq++, ...rest } });
  const events = [ev('response.created', { response: { ...full, status: 'in_progress', output: [], usage: null } })];
  output.forEach((item, output_index) => {
    events.push(
      ev('response.output_item.added', {
        output_index,
        item: { ...item, ...(item.type === 'message' ? { content: [] } : { arguments: '' }), status: 'in_progress' },
      }),
    );
    if (item.type === 'message')
      for (const delta of halves(item.content[0].text))
        events.push(ev('response.output_text.delta', { output_index, item_id: item.id, content_index: 0, delta }));
    else
      for (const delta of halves(item.arguments))
        events.push(ev('response.function_call_arguments.delta', { output_index, item_id: item.id, delta }));
    events.push(ev('response.output_item.done', { output_index, item }));
  });
  events.push(ev('response.completed', { response: full }));
  sse(res, events, s.chunkDelayMs);
}

/** A content block of a Messages answer. */
type MessagesBlock =
  { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

function messages(res: ServerResponse, body: UpstreamBody, s: UpstreamReply, stream: boolean): void {
  const u = usageOf(s);
  const content: MessagesBlock[] = [];
  if (s.text) content.push({ type: 'text', text: s.text });
  (s.tool_calls ?? []).forEach((t, i) =>
    content.push({ type: 'tool_use', id: t.id ?? `toolu_${i}`, name: t.name, input: t.arguments }),
  );
  const stop_reason = s.tool_calls?.length ? 'tool_use' : 'end_turn';
  const msg = { id: 'msg_1', type: 'message', role: 'assistant', model: body?.model ?? 'm', stop_sequence: null };
  if (!stream)
    return json(res, 200, { ...msg, content, stop_reason, usage: { input_tokens: u.input, output_tokens: u.output } });
  const ev = (type: string, rest: object) => ({ event: type, data: { type, ...rest } });
  const events = [
    ev('message_start', {
      message: { ...msg, content: [], stop_reason: null, usage: { input_tokens: u.input, output_tokens: 1 } },
    }),
  ];
  if (s.streamError)
    return sse(res, [...events, ev('error', { error: { type: 'overloaded_error', message: s.streamError } })]);
  content.forEach((b, index) => {
    if (b.type === 'text') {
      events.push(ev('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      for (const text of halves(b.text))
        events.push(ev('content_block_delta', { index, delta: { type: 'text_delta', text } }));
    } else {
      events.push(
        ev('content_block_start', { index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } }),
      );
      for (const partial_json of halves(JSON.stringify(b.input)))
        events.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } }));
    }
    events.push(ev('content_block_stop', { index }));
  });
  events.push(ev('message_delta', { delta: { stop_reason, stop_sequence: null }, usage: { output_tokens: u.output } }));
  events.push(ev('message_stop', {}));
  sse(res, events, s.chunkDelayMs);
}
