// A scripted OpenAI-compatible server on 127.0.0.1 for tests: real HTTP, so the real SDK, retries,
// timeouts and dropped sockets are exercised exactly as against a provider. Never a real model.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { flatHeaders, readWireBody, type WireBody } from './http.ts';

export interface ScriptedToolCall {
  id?: string;
  name: string;
  /** A string is sent verbatim (so tests can send malformed JSON); an object is JSON-encoded. */
  arguments: string | Record<string, unknown>;
}

export interface ReplyStep {
  content?: string | null;
  tool_calls?: ScriptedToolCall[];
  /** `cached_tokens`: reported as `prompt_tokens_details.cached_tokens` (part of prompt_tokens). */
  usage?: { prompt_tokens?: number; completion_tokens?: number; cached_tokens?: number };
  model?: string;
  finish_reason?: string;
}
export interface ErrorStep {
  status: number;
  /** `retry-after` header: seconds (number) or an HTTP date (string). */
  retryAfter?: number | string;
  retryAfterMs?: number;
  message?: string;
}
export interface DropStep {
  drop: true;
}
export type Step = (ReplyStep | ErrorStep | DropStep) & { delayMs?: number };

export interface RecordedRequest {
  path: string;
  body: WireBody;
  headers: Record<string, string>;
}
export type Script = Step[] | ((req: RecordedRequest, n: number) => Step);

export interface ModelServer {
  /** base_url ending in /v1 */
  url: string;
  port: number;
  /** Every request received on /v1/chat/completions, in order. */
  requests: RecordedRequest[];
  embeddingRequests: RecordedRequest[];
  /** The model list's requests (GET /v1/models: a run's start-time model check), by their key's header. */
  modelListRequests: string[];
  setScript(script: Script): void;
  close(): Promise<void>;
}

export async function startModelServer(script: Script = []): Promise<ModelServer> {
  let current: Script = script;
  let queue: Step[] = Array.isArray(script) ? [...script] : [];
  const requests: RecordedRequest[] = [];
  const embeddingRequests: RecordedRequest[] = [];
  const modelListRequests: string[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const nextStep = (req: RecordedRequest, n: number): Step => {
    if (typeof current === 'function') return current(req, n);
    return queue.shift() ?? { status: 500, message: 'model-server: script exhausted' };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readWireBody(req);
    const rec: RecordedRequest = { path: req.url ?? '', body, headers: flatHeaders(req) };
    if (req.method === 'POST' && req.url === '/v1/chat/completions') {
      requests.push(rec);
      const step = nextStep(rec, requests.length);
      const answer = () => answerChat(req, res, rec, step);
      if (step.delayMs) {
        const t = setTimeout(() => (timers.delete(t), answer()), step.delayMs);
        timers.add(t);
      } else answer();
    } else if (req.method === 'POST' && req.url === '/v1/embeddings') {
      embeddingRequests.push(rec);
      sendJson(res, 200, embeddings(body));
    } else if (req.method === 'GET' && req.url === '/v1/models') {
      modelListRequests.push(String(req.headers.authorization ?? ''));
      sendJson(res, 200, { object: 'list', data: [{ id: 'scripted-model', object: 'model', owned_by: 'test' }] });
    } else sendJson(res, 404, { error: { message: `no route ${req.method} ${req.url}`, type: 'not_found' } });
  };
  const server = createServer((req, res) => void handle(req, res));
  server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    embeddingRequests,
    modelListRequests,
    setScript(s: Script) {
      current = s;
      queue = Array.isArray(s) ? [...s] : [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function answerChat(req: IncomingMessage, res: ServerResponse, rec: RecordedRequest, step: Step): void {
  if ('drop' in step) {
    req.socket.destroy(); // no status line at all: the client sees a network error
    return;
  }
  if ('status' in step) {
    const headers: Record<string, string> = {};
    if (step.retryAfter !== undefined) headers['retry-after'] = String(step.retryAfter);
    if (step.retryAfterMs !== undefined) headers['retry-after-ms'] = String(step.retryAfterMs);
    const message = step.message ?? `scripted error ${step.status}`;
    sendJson(res, step.status, { error: { message, type: 'scripted_error', code: String(step.status) } }, headers);
    return;
  }
  const toolCalls = step.tool_calls?.map((tc, i) => ({
    id: tc.id ?? `call_${rec.body ? requestsTag(rec) : 'x'}_${i}`,
    type: 'function',
    function: {
      name: tc.name,
      arguments: typeof tc.arguments === 'string' ? tc.arguments : JSON.stringify(tc.arguments),
    },
  }));
  const content = step.content === undefined ? (toolCalls ? null : '') : step.content;
  // Deterministic default usage, roughly 4 characters a token.
  const prompt = step.usage?.prompt_tokens ?? Math.ceil(JSON.stringify(rec.body?.messages ?? []).length / 4);
  const completion =
    step.usage?.completion_tokens ?? Math.ceil(((content ?? '') + JSON.stringify(toolCalls ?? '')).length / 4);
  sendJson(res, 200, {
    id: `chatcmpl-${requestsTag(rec)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: step.model ?? rec.body?.model ?? 'scripted-model',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, ...(toolCalls ? { tool_calls: toolCalls } : {}), refusal: null },
        finish_reason: step.finish_reason ?? (toolCalls ? 'tool_calls' : 'stop'),
        logprobs: null,
      },
    ],
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      ...(step.usage?.cached_tokens === undefined
        ? {}
        : { prompt_tokens_details: { cached_tokens: step.usage.cached_tokens } }),
    },
  });
}

/** A short stable tag of a request body: ids differ per request content, not per wall clock. */
function requestsTag(rec: RecordedRequest): string {
  return createHash('sha256')
    .update(JSON.stringify(rec.body ?? null))
    .digest('hex')
    .slice(0, 12);
}

function embeddings(body: WireBody) {
  const inputs: string[] = Array.isArray(body?.input) ? body.input.map(String) : [String(body?.input ?? '')];
  const dims = Number(body?.dimensions) || 8;
  const data = inputs.map((text, index) => {
    const digest = createHash('sha256').update(text).digest();
    const v = Array.from({ length: dims }, (_, i) => digest[i % digest.length] / 255 - 0.5);
    const norm = Math.hypot(...v) || 1;
    return { object: 'embedding', index, embedding: v.map((x) => x / norm) };
  });
  const tokens = inputs.reduce((n, t) => n + Math.ceil(t.length / 4), 0);
  return {
    object: 'list',
    data,
    model: body?.model ?? 'scripted-embedding',
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}
