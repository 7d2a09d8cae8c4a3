// The run's model gateway (docs/agents.md#the-model-gateway): one HTTP server for every trial of a run. It answers only
// requests that carry a registered trial's token, counts each model request against that trial's
// budget before anything else, and forwards it to the upstream of its protocol (call.ts).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { chmodSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { LlmCache } from '../llm/cache.ts';
import { handleCall } from './call.ts';
import { readBody } from './forward.ts';
import { sendError, sendJson } from './error-body.ts';
import { fieldValue, topLevelFields } from './json-fields.ts';
import { takeBudget, TokenRegistry, type TrialEntry } from './tokens.ts';
import type { GatewayOptions, GatewayRegistration, GatewayTrial, ModelGateway, Protocol } from './types.ts';
import { UPSTREAM_TABLE } from './upstreams.ts';

const ROUTES: Record<string, { protocol: Protocol; modelCall: boolean }> = {
  '/chat/completions': { protocol: 'chat', modelCall: true },
  '/responses': { protocol: 'responses', modelCall: true },
  '/messages': { protocol: 'messages', modelCall: true },
  // Counting tokens is not a model call: not against the budget, not an llm_call event.
  '/messages/count_tokens': { protocol: 'messages', modelCall: false },
};

const PROTOCOL_NAME: Record<Protocol, string> = { chat: 'OpenAI Chat Completions', responses: 'OpenAI Responses', messages: 'Anthropic Messages' };

/** Request bodies of CLIs are 40–80 KB; a long conversation is a few MB. */
const MAX_BODY = 64 * 1024 * 1024;

export function createModelGateway(opts: GatewayOptions): ModelGateway {
  const registry = new TokenRegistry();
  const cache = opts.cache && opts.cache.mode !== 'off' ? { mode: opts.cache.mode, store: new LlmCache(opts.cache.dir) } : null;
  const sockets = new Set<Socket>();
  const inFlight = new Set<AbortController>();
  let baseUrl = '';
  const unixServers: NetServer[] = [];

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      // A bug of ours, not the agent's: a 500 without details (they could name internals).
      if (!res.headersSent) sendError(res, 'chat', 500, 'upstream_error', 'benchrig gateway: internal error');
      else res.destroy();
      process.emitWarning(`benchrig gateway: ${(err as Error)?.message ?? err}`);
    });
  });
  server.keepAliveTimeout = 65_000; // longer than the CLIs' idle keep-alive, so they never write to a closing socket
  server.headersTimeout = 66_000; // above keepAliveTimeout, or an idle kept-alive socket can be cut
  server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://gateway');
    const guess: Protocol = req.headers['anthropic-version'] || req.headers['x-api-key'] ? 'messages' : 'chat';
    // Claude Code's preflight (HEAD /) and plain health checks: no token, nothing about the run.
    if ((req.method === 'HEAD' || req.method === 'GET') && url.pathname === '/') return void sendJson(res, 200, { ok: true });

    const path = url.pathname.replace(/\/+$/, '');
    const route = path.startsWith('/v1/') ? ROUTES[path.slice(3)] : undefined;
    const isModels = path === '/v1/models';
    if (!route && !isModels) return sendError(res, guess, 404, 'not_found', `benchrig gateway: no route ${req.method} ${url.pathname}`);

    const entry = registry.lookup(req.headers);
    if (!entry) {
      req.resume();
      return sendError(res, route?.protocol ?? guess, 401, 'invalid_api_key', 'benchrig gateway: unknown or expired API key (a trial\'s token works only while the trial runs)');
    }
    if (isModels) return void sendJson(res, 200, modelList());
    if (req.method !== 'POST') return sendError(res, route!.protocol, 404, 'not_found', `benchrig gateway: ${url.pathname} takes POST`);
    entry.active++;
    try {
      await modelRequest(req, res, url, path, route!, entry);
    } finally {
      if (--entry.active === 0) for (const wake of entry.idle.splice(0)) wake();
    }
  }

  async function modelRequest(req: IncomingMessage, res: ServerResponse, url: URL, path: string, route: (typeof ROUTES)[string], entry: TrialEntry): Promise<void> {
    const { protocol, modelCall } = route;

    const raw = await readBody(req, MAX_BODY).catch(() => undefined);
    if (raw === undefined) return void res.destroy(); // the agent hung up while sending: nothing to answer
    const fields = raw && topLevelFields(raw);
    if (!raw || !fields) return sendError(res, protocol, 400, 'invalid_request', 'benchrig gateway: the request body is not a JSON object (or is over 64 MB)');

    if (modelCall) {
      const refused = takeBudget(entry);
      if (refused) {
        return sendError(res, protocol, 400, 'llm_budget_exceeded',
          `benchrig gateway: this trial's LLM-call budget is spent (max_llm_calls = ${refused.limit}); the request was not sent to the model`);
      }
    }
    const upstream = opts.upstreams[protocol];
    if (!upstream) {
      const message = `benchrig gateway: no upstream speaks ${PROTOCOL_NAME[protocol]} (${url.pathname}); set ${UPSTREAM_TABLE[protocol]} base_url in the config`;
      sendError(res, protocol, 400, 'protocol_not_configured', message);
      if (modelCall) {
        entry.usage.calls++;
        const model = fieldValue(raw, fields, 'model');
        const stream = fieldValue(raw, fields, 'stream') === true;
        entry.trial.onEvent({ type: 'llm_call', model: typeof model === 'string' ? model : '', latency_ms: 0, tokens: { input: 0, output: 0 }, role: 'agent', api: protocol, stream, error: message });
        entry.trial.onModelError?.(message);
      }
      return;
    }

    const ctl = new AbortController();
    inFlight.add(ctl);
    // The agent hanging up mid-call stops the upstream request too.
    const onClose = () => !res.writableFinished && ctl.abort();
    res.on('close', onClose);
    try {
      await handleCall({ protocol, route: path.slice(3), search: url.search, upstream, entry, raw, fields, req, res, recorded: modelCall, cache, retry: opts.retry, signal: ctl.signal });
    } finally {
      res.off('close', onClose);
      inFlight.delete(ctl);
    }
  }

  /** Both list shapes at once: OpenAI's (`object`, `owned_by`) and Anthropic's (`type`, `display_name`). */
  function modelList() {
    const ids = [...new Set(Object.values(opts.upstreams).map((u) => u!.model))];
    const data = ids.map((id) => ({ id, object: 'model', type: 'model', display_name: id, created: 0, created_at: '1970-01-01T00:00:00Z', owned_by: 'benchrig' }));
    return { object: 'list', data, has_more: false, first_id: ids[0] ?? null, last_id: ids.at(-1) ?? null };
  }

  return {
    async start() {
      if (!baseUrl) {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => (server.off('error', reject), resolve()));
        });
        const a = server.address() as AddressInfo;
        baseUrl = `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`;
      }
      return { baseUrl };
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
      unixServers.push(unix);
    },
    register(trial: GatewayTrial): GatewayRegistration {
      if (!baseUrl) throw new Error('ModelGateway.register before start()');
      const { token, entry } = registry.register(trial);
      return {
        baseUrl,
        token,
        get usage() {
          return { calls: entry.usage.calls, tokens: { ...entry.usage.tokens } };
        },
        unregister: () => registry.unregister(token),
        settled: () => (entry.active === 0 ? Promise.resolve() : new Promise<void>((resolve) => entry.idle.push(resolve))),
      };
    },
    async close() {
      for (const c of inFlight) c.abort();
      for (const u of unixServers.splice(0)) u.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      if (baseUrl) await closed;
    },
  };
}
