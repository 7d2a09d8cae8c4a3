// The run's model gateway (docs/agents.md#the-model-gateway): one HTTP server for every trial of a run. It answers only
// requests that carry a registered trial's token, counts each model request against that trial's
// budget before anything else, and forwards it to the upstream of its protocol (call.ts), or, when
// none is configured, translated to `[llm]`'s Chat Completions (docs/agents.md#translation).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { chmodSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { scrubberFor } from '../config/scrub.ts';
import { LlmCache } from '../llm/cache.ts';
import { handleCall, type CallContext } from './call.ts';
import { DEFAULT_LIMITS, readRequestBody } from './limits.ts';
import { sendError, sendJson } from './error-body.ts';
import { fieldValue, topLevelFields } from './json-fields.ts';
import { budgetRefusal, slotsOf, takeBudget, TokenRegistry, type TrialEntry } from './tokens.ts';
import type { GatewayOptions, GatewayRegistration, GatewayTrial, ModelGateway, Protocol, Upstream } from './types.ts';
import { routeFor, UPSTREAM_TABLE } from './upstreams.ts';
import { translate, translates, type Json, type Translation } from './translate/index.ts';

const ROUTES: Record<string, { protocol: Protocol; modelCall: boolean }> = {
  '/chat/completions': { protocol: 'chat', modelCall: true },
  '/responses': { protocol: 'responses', modelCall: true },
  '/messages': { protocol: 'messages', modelCall: true },
  // Counting tokens is not a model call: not against the budget, not an llm_call event.
  '/messages/count_tokens': { protocol: 'messages', modelCall: false },
};

const PROTOCOL_NAME: Record<Protocol, string> = {
  chat: 'OpenAI Chat Completions',
  responses: 'OpenAI Responses',
  messages: 'Anthropic Messages',
};

type Route = (typeof ROUTES)[string];

/** What the gateway's steps share: its options, its server and what it is answering now. */
interface Gateway {
  opts: GatewayOptions;
  registry: TokenRegistry;
  cache: CallContext['cache'];
  limits: typeof DEFAULT_LIMITS;
  server: Server;
  sockets: Set<Socket>;
  inFlight: Set<AbortController>;
  /** Requests of every trial being answered. */
  answering: number;
  baseUrl: string;
  unixServers: NetServer[];
}

export function createModelGateway(opts: GatewayOptions): ModelGateway {
  const scrub = scrubberFor(Object.values(opts.upstreams).map((u) => u.apiKey));
  const limits = { ...DEFAULT_LIMITS, ...opts.limits };
  // Node drops a connection whose headers (or whole request) are too slow to arrive with a bare 408;
  // the body has its own, shorter deadline (dropBody), answered in the wire API's shape.
  const serverOptions = {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.headersTimeoutMs + limits.bodyTimeoutMs + 1000,
    connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs / 2),
  };
  const g: Gateway = {
    opts,
    registry: new TokenRegistry(),
    cache:
      opts.cache && opts.cache.mode !== 'off'
        ? { mode: opts.cache.mode, store: new LlmCache(opts.cache.dir, scrub), scrub }
        : null,
    limits,
    server: createServer(serverOptions, (req, res) => {
      handle(g, req, res).catch((err) => {
        // A bug of ours, not the agent's: a 500 without details (they could name internals).
        if (!res.headersSent) sendError(res, 'chat', 500, 'upstream_error', 'benchrig gateway: internal error');
        else res.destroy();
        process.emitWarning(`benchrig gateway: ${(err as Error)?.message ?? err}`);
      });
    }),
    sockets: new Set(),
    inFlight: new Set(),
    answering: 0,
    baseUrl: '',
    unixServers: [],
  };
  g.server.keepAliveTimeout = 65_000; // longer than the CLIs' idle keep-alive, so they never write to a closing socket
  g.server.on('connection', (s: Socket) => {
    if (g.sockets.size >= limits.maxConnections) return void s.destroy();
    g.sockets.add(s);
    s.on('close', () => g.sockets.delete(s));
  });
  return gatewayApi(g);
}

/** A request refused before its body was read: the body is counted, not kept, then the answer sent. */
async function refuse(
  g: Gateway,
  req: IncomingMessage,
  res: ServerResponse,
  protocol: Protocol,
  send: () => void,
): Promise<void> {
  const body = await readRequestBody(req, g.limits.maxBodyBytes, g.limits.bodyTimeoutMs, false);
  if (body.kind !== 'ok') return dropBody(g, req, res, protocol, body.kind);
  send();
}

async function handle(g: Gateway, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { limits } = g;
  const url = new URL(req.url ?? '/', 'http://gateway');
  const guess: Protocol = req.headers['anthropic-version'] || req.headers['x-api-key'] ? 'messages' : 'chat';
  // Claude Code's preflight (HEAD /) and plain health checks: no token, nothing about the run.
  if ((req.method === 'HEAD' || req.method === 'GET') && url.pathname === '/')
    return void sendJson(res, 200, { ok: true });

  const path = url.pathname.replace(/\/+$/, '');
  const route = path.startsWith('/v1/') ? ROUTES[path.slice(3)] : undefined;
  const isModels = path === '/v1/models';
  if (!route && !isModels)
    return refuse(g, req, res, guess, () =>
      sendError(res, guess, 404, 'not_found', `benchrig gateway: no route ${req.method} ${url.pathname}`),
    );

  const entry = g.registry.lookup(req.headers);
  if (!entry) {
    return refuse(g, req, res, route?.protocol ?? guess, () =>
      sendError(
        res,
        route?.protocol ?? guess,
        401,
        'invalid_api_key',
        "benchrig gateway: unknown or expired API key (a trial's token works only while the trial runs)",
      ),
    );
  }
  if (isModels || !route) return refuse(g, req, res, 'chat', () => sendJson(res, 200, modelList(g.opts)));
  const protocol = route.protocol;
  if (req.method !== 'POST')
    return refuse(g, req, res, protocol, () =>
      sendError(res, protocol, 404, 'not_found', `benchrig gateway: ${url.pathname} takes POST`),
    );
  // Everything that refuses a request is decided before its body is read.
  const refused = route.modelCall ? budgetRefusal(entry) : null;
  if (refused) return refuse(g, req, res, protocol, () => sendBudgetError(res, protocol, entry, 1));
  const busy =
    entry.active >= limits.maxInFlightPerTrial
      ? `${limits.maxInFlightPerTrial} requests of this trial`
      : g.answering >= limits.maxInFlight
        ? `${limits.maxInFlight} requests`
        : null;
  if (busy) {
    res.setHeader('retry-after', '1');
    return refuse(g, req, res, protocol, () =>
      sendError(
        res,
        protocol,
        429,
        'too_many_requests',
        `benchrig gateway: ${busy} are being answered already; retry when one is done`,
      ),
    );
  }
  entry.active++;
  g.answering++;
  try {
    await modelRequest(g, req, res, url, path, route, entry);
  } finally {
    g.answering--;
    if (--entry.active === 0) for (const wake of entry.idle.splice(0)) wake();
  }
}

/** The body could not be read whole: answered if it still can be, then the connection closed. */
function dropBody(
  g: Gateway,
  req: IncomingMessage,
  res: ServerResponse,
  protocol: Protocol,
  kind: 'too_large' | 'timeout' | 'closed',
): void {
  if (kind === 'closed') return void res.destroy(); // the agent hung up while sending: nothing to answer
  res.setHeader('connection', 'close');
  res.once('finish', () => req.socket.destroy());
  if (kind === 'too_large')
    sendError(
      res,
      protocol,
      413,
      'request_too_large',
      `benchrig gateway: the request body is over ${g.limits.maxBodyBytes} bytes`,
    );
  else
    sendError(
      res,
      protocol,
      408,
      'request_timeout',
      `benchrig gateway: the request body did not arrive within ${g.limits.bodyTimeoutMs / 1000}s`,
    );
}

async function modelRequest(
  g: Gateway,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  path: string,
  route: Route,
  entry: TrialEntry,
): Promise<void> {
  const { protocol, modelCall } = route;

  const body = await readRequestBody(req, g.limits.maxBodyBytes, g.limits.bodyTimeoutMs);
  if (body.kind !== 'ok') return dropBody(g, req, res, protocol, body.kind);
  const raw = body.body;
  const fields = topLevelFields(raw);
  if (!fields)
    return sendError(res, protocol, 400, 'invalid_request', 'benchrig gateway: the request body is not a JSON object');

  if (modelCall) {
    // `n` completions are n calls' worth of answers: n slots (only Chat Completions has `n`).
    const slots = protocol === 'chat' ? slotsOf(fieldValue(raw, fields, 'n')) : 1;
    if (typeof slots === 'string') return sendError(res, protocol, 400, 'invalid_request', slots);
    const refused = takeBudget(entry, slots); // another request of the trial may have taken the last slot meanwhile
    if (refused) return sendBudgetError(res, protocol, entry, slots);
  }
  const target = routeFor(g.opts.upstreams, protocol);
  if (!target) {
    const message = `benchrig gateway: no upstream speaks ${PROTOCOL_NAME[protocol]} (${url.pathname}); set ${UPSTREAM_TABLE[protocol]} base_url in the config`;
    sendError(res, protocol, 400, 'protocol_not_configured', message);
    if (modelCall) {
      entry.usage.calls++;
      const model = fieldValue(raw, fields, 'model');
      const stream = fieldValue(raw, fields, 'stream') === true;
      entry.trial.onEvent({
        type: 'llm_call',
        model: typeof model === 'string' ? model : '',
        latency_ms: 0,
        tokens: { input: 0, output: 0 },
        role: 'agent',
        api: protocol,
        stream,
        error: message,
      });
      entry.trial.onModelError?.(message, false); // the run's config, not the endpoint
    }
    return;
  }
  const { upstream } = target;
  const translation = target.translated ? translationOf(res, route, upstream, raw) : null;
  if (translation === 'answered') return;

  const ctl = new AbortController();
  g.inFlight.add(ctl);
  // The agent hanging up mid-call stops the upstream request too.
  const onClose = () => !res.writableFinished && ctl.abort();
  res.on('close', onClose);
  try {
    await handleCall({
      protocol,
      route: path.slice(3),
      search: url.search,
      upstream,
      translation,
      entry,
      raw,
      fields,
      req,
      res,
      recorded: modelCall,
      cache: g.cache,
      retry: g.opts.retry,
      signal: ctl.signal,
    });
  } finally {
    res.off('close', onClose);
    g.inFlight.delete(ctl);
  }
}

/** The translation of a request for an upstream of another API, or 'answered' (count_tokens, a body not JSON). */
function translationOf(
  res: ServerResponse,
  route: Route,
  upstream: Upstream,
  raw: Buffer,
): Translation | 'answered' | null {
  const { protocol } = route;
  if (!translates(protocol, upstream.protocol)) return null;
  // Chat Completions has no token counting: an estimate (4 bytes a token), answered here.
  if (!route.modelCall) {
    sendJson(res, 200, { input_tokens: Math.ceil(raw.length / 4) });
    return 'answered';
  }
  const parsed = parseObject(raw);
  if (parsed) return translate(protocol, parsed, upstream.model);
  sendError(res, protocol, 400, 'invalid_request', 'benchrig gateway: the request body is not a JSON object');
  return 'answered';
}

function parseObject(raw: Buffer): Json | null {
  try {
    const v: unknown = JSON.parse(raw.toString('utf8'));
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null;
  } catch {
    return null;
  }
}

function sendBudgetError(res: ServerResponse, protocol: Protocol, entry: TrialEntry, slots: number): void {
  const limit = entry.trial.budget ?? 0;
  const left = limit - entry.taken;
  const why =
    left > 0
      ? `n = ${slots} asks for ${slots} completions, each one call of this trial's LLM-call budget, and ${left} ${left === 1 ? 'is' : 'are'} left (max_llm_calls = ${limit})`
      : `this trial's LLM-call budget is spent (max_llm_calls = ${limit})`;
  sendError(
    res,
    protocol,
    400,
    'llm_budget_exceeded',
    `benchrig gateway: ${why}; the request was not sent to the model`,
  );
}

/** Both list shapes at once: OpenAI's (`object`, `owned_by`) and Anthropic's (`type`, `display_name`). */
function modelList(opts: GatewayOptions) {
  const ids = [...new Set(Object.values(opts.upstreams).map((u) => u.model))];
  const data = ids.map((id) => ({
    id,
    object: 'model',
    type: 'model',
    display_name: id,
    created: 0,
    created_at: '1970-01-01T00:00:00Z',
    owned_by: 'benchrig',
  }));
  return { object: 'list', data, has_more: false, first_id: ids[0] ?? null, last_id: ids.at(-1) ?? null };
}

function gatewayApi(g: Gateway): ModelGateway {
  const { server } = g;
  return {
    async start() {
      if (!g.baseUrl) {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(g.opts.port ?? 0, g.opts.host ?? '127.0.0.1', () => (server.off('error', reject), resolve()));
        });
        const a = server.address() as AddressInfo;
        g.baseUrl = `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`;
      }
      return { baseUrl: g.baseUrl };
    },
    async listenUnix(path: string) {
      // The same HTTP server, fed the socket's connections: one handler, one set of sockets to close.
      const unix = createNetServer((conn) => server.emit('connection', conn));
      await new Promise<void>((resolve, reject) => {
        unix.once('error', reject);
        unix.listen(path, () => (unix.off('error', reject), resolve()));
      });
      chmodSync(path, 0o666); // the agent may run as an unprivileged user
      unix.unref();
      server.unref(); // a worker whose trials are done exits; the run's socket folder goes with the run
      g.unixServers.push(unix);
    },
    register(trial: GatewayTrial): GatewayRegistration {
      const baseUrl = g.baseUrl;
      if (!baseUrl) throw new Error('ModelGateway.register before start()');
      const { token, entry } = g.registry.register(trial);
      return {
        baseUrl,
        token,
        get usage() {
          return { calls: entry.usage.calls, tokens: { ...entry.usage.tokens } };
        },
        unregister: () => g.registry.unregister(token),
        settled: () =>
          entry.active === 0 ? Promise.resolve() : new Promise<void>((resolve) => entry.idle.push(resolve)),
      };
    },
    async close() {
      for (const c of g.inFlight) c.abort();
      for (const u of g.unixServers.splice(0)) u.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of g.sockets) s.destroy();
      if (g.baseUrl) await closed;
    },
  };
}
