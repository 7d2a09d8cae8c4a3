// A loopback telemetry backend for tests: an OTLP/HTTP collector (`POST /v1/traces`, JSON as the
// exporter sends it) and the Langfuse endpoints its SDK calls (the OTLP endpoint
// `/api/public/otel/v1/traces` behind Basic auth, and the score ingestion `/api/public/ingestion`).
// It stores what arrived so tests can assert on spans, parent links, auth and scores.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { defined } from './defined.ts';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** As read (readBody below); null when empty or refused for want of auth. */
  body: ReceivedBody | null;
}

/** An OTLP JSON value (`{ stringValue }`, `{ intValue }`, …) and an attribute list. */
interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: string | number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
  kvlistValue?: { values?: OtlpAttribute[] };
}
interface OtlpAttribute {
  key: string;
  value?: OtlpValue;
}
interface OtlpSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes?: OtlpAttribute[];
  status?: { code?: number; message?: string };
  events?: { name: string; attributes?: OtlpAttribute[] }[];
  startTimeUnixNano?: unknown;
  endTimeUnixNano?: unknown;
}

/** A Langfuse score as the SDK sends it (score-create body, or POST /api/public/scores). */
export interface LangfuseScore {
  id?: string;
  name?: string;
  value?: unknown;
  traceId?: string;
  observationId?: string;
  [key: string]: unknown;
}

/**
 * A request body as the collector reads it: OTLP JSON (`resourceSpans`), a Langfuse ingestion batch
 * (`batch`) or score, `{ raw }` when it is not JSON.
 */
export type ReceivedBody = LangfuseScore & {
  resourceSpans?: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
  batch?: { id?: string; type?: string; body: LangfuseScore }[];
  raw?: string;
};

export interface CollectedSpan {
  /** 'otlp' for /v1/traces, 'langfuse' for /api/public/otel/v1/traces */
  via: 'otlp' | 'langfuse';
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
  status: { code: number; message?: string };
  events: { name: string; attributes: Record<string, unknown> }[];
  startMs: number;
  endMs: number;
}

export interface Collector {
  /** http://127.0.0.1:PORT */
  url: string;
  requests: ReceivedRequest[];
  spans(via?: 'otlp' | 'langfuse'): CollectedSpan[];
  /** Langfuse score-create bodies from /api/public/ingestion and /api/public/scores. */
  scores(): LangfuseScore[];
  /** Resolves once `pred` holds (polling), or rejects after `timeoutMs`. */
  until(pred: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface CollectorOptions {
  /** Langfuse requests must carry Basic auth with these; others get 401. */
  langfuse?: { publicKey: string; secretKey: string };
}

export async function startCollector(opts: CollectorOptions = {}): Promise<Collector> {
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  const expectedAuth =
    opts.langfuse && `Basic ${Buffer.from(`${opts.langfuse.publicKey}:${opts.langfuse.secretKey}`).toString('base64')}`;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '').split('?')[0];
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
    );
    const body = await readBody(req);
    const reply = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (path.startsWith('/api/public/') && expectedAuth && headers.authorization !== expectedAuth) {
      requests.push({ method: req.method ?? '', path, headers, body: null });
      return reply(401, { message: 'invalid credentials' });
    }
    requests.push({ method: req.method ?? '', path, headers, body });
    if (req.method === 'POST' && (path === '/v1/traces' || path === '/api/public/otel/v1/traces'))
      return reply(200, {});
    if (req.method === 'POST' && path === '/api/public/ingestion') {
      const batch = body?.batch ?? [];
      return reply(207, { successes: batch.map((e) => ({ id: e.id, status: 201 })), errors: [] });
    }
    if (req.method === 'POST' && path === '/api/public/scores') return reply(200, { id: body?.id ?? 'score' });
    reply(404, { message: `no route ${req.method} ${path}` });
  };
  const server = createServer((req, res) => void handle(req, res));
  server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const spans = (via?: 'otlp' | 'langfuse'): CollectedSpan[] => {
    const out: CollectedSpan[] = [];
    for (const r of requests) {
      const from = r.path === '/v1/traces' ? 'otlp' : r.path === '/api/public/otel/v1/traces' ? 'langfuse' : null;
      if (!from || (via && via !== from) || !r.body?.resourceSpans) continue;
      for (const rs of r.body.resourceSpans)
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? [])
            out.push({
              via: from,
              name: s.name,
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId || null,
              attributes: attrs(s.attributes),
              resource: attrs(rs.resource?.attributes),
              status: { code: s.status?.code ?? 0, message: s.status?.message },
              events: (s.events ?? []).map((e) => ({ name: e.name, attributes: attrs(e.attributes) })),
              startMs: nanosToMs(s.startTimeUnixNano),
              endMs: nanosToMs(s.endTimeUnixNano),
            });
    }
    return out;
  };

  const scores = () =>
    requests.flatMap((r) => {
      if (r.path === '/api/public/ingestion')
        return (r.body?.batch ?? []).filter((e) => e.type === 'score-create').map((e) => e.body);
      if (r.path === '/api/public/scores') return [defined(r.body, 'score (the request was refused)')];
      return [];
    });

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    spans,
    scores,
    async until(pred, timeoutMs = 15_000) {
      const t0 = Date.now();
      while (!pred()) {
        if (Date.now() - t0 > timeoutMs)
          throw new Error(`collector: condition not met after ${timeoutMs} ms (${requests.length} requests)`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

async function readBody(req: IncomingMessage): Promise<ReceivedBody | null> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  let raw = Buffer.concat(chunks);
  if (/gzip/.test(String(req.headers['content-encoding'] ?? ''))) raw = gunzipSync(raw);
  if (raw.length === 0) return null;
  // Only the JSON encoding is decoded (the OTLP/HTTP exporter benchrig uses sends JSON).
  if (!/json/.test(String(req.headers['content-type'] ?? ''))) return { raw: raw.toString('base64') };
  try {
    return JSON.parse(raw.toString('utf8')) as ReceivedBody;
  } catch {
    return { raw: raw.toString('utf8') };
  }
}

/** OTLP JSON attributes ([{key, value: {stringValue|intValue|…}}]) as a plain object. */
function attrs(list: OtlpAttribute[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((a) => [a.key, anyValue(a.value)]));
}

function anyValue(v: OtlpValue | undefined): unknown {
  if (!v) return null;
  if ('stringValue' in v) return v.stringValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return Number(v.doubleValue);
  if ('boolValue' in v) return v.boolValue;
  if ('arrayValue' in v) return (v.arrayValue?.values ?? []).map(anyValue);
  if ('kvlistValue' in v) return attrs(v.kvlistValue?.values);
  return null;
}

function nanosToMs(n: unknown): number {
  if (typeof n === 'string') return Number(BigInt(n) / 1000n) / 1000;
  if (typeof n === 'number') return n / 1e6;
  if (n && typeof n === 'object' && 'low' in n && 'high' in n)
    return (Number(n.high) * 2 ** 32 + (Number(n.low) >>> 0)) / 1e6;
  return 0;
}
