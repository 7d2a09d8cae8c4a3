// A scripted agent behind HTTP on 127.0.0.1, for the `http` agent: real HTTP, so timeouts, retries
// and retry-after are exercised as against a deployed agent. It speaks both protocols:
//   POST /v1/chat/completions   (openai: answers choices[0].message.content)
//   POST /agent                 (benchrig: answers an AgentReply JSON)
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { flatHeaders, readWireBody, type WireBody } from './http.ts';

export interface AgentStep {
  /** Answer with this HTTP status and an error body instead of a reply. */
  status?: number;
  retryAfter?: number;
  delayMs?: number;
  /** openai: the content; benchrig: the AgentReply's content. */
  content?: string;
  /** benchrig only: the rest of the AgentReply (done, blocked, state, events). */
  reply?: Record<string, unknown>;
}

export interface AgentRequest {
  path: string;
  body: WireBody;
  headers: Record<string, string>;
}

export interface AgentServer {
  /** http://127.0.0.1:PORT (no trailing slash) */
  url: string;
  requests: AgentRequest[];
  close(): Promise<void>;
}

/** Steps are taken in order; a function decides per request. Past the end: echo the last user message. */
export async function startAgentServer(
  script: AgentStep[] | ((req: AgentRequest, n: number) => AgentStep) = [],
): Promise<AgentServer> {
  const queue = Array.isArray(script) ? [...script] : [];
  const requests: AgentRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readWireBody(req);
    const rec: AgentRequest = { path: req.url ?? '', body, headers: flatHeaders(req) };
    requests.push(rec);
    const lastUser = [...(body?.messages ?? [])].reverse().find((m) => m.role === 'user')?.content ?? '';
    const step: AgentStep =
      typeof script === 'function' ? script(rec, requests.length) : (queue.shift() ?? { content: `echo: ${lastUser}` });
    const send = () => {
      if (res.destroyed) return;
      let status = 200;
      let out: unknown;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (step.status) {
        status = step.status;
        out = { error: { message: `scripted ${step.status}` } };
        if (step.retryAfter !== undefined) headers['retry-after'] = String(step.retryAfter);
      } else if (req.url === '/v1/chat/completions') {
        out = {
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          created: 0,
          model: body?.model ?? 'agent',
          choices: [{ index: 0, message: { role: 'assistant', content: step.content ?? '' }, finish_reason: 'stop' }],
        };
      } else if (req.url === '/agent') {
        out = { content: step.content ?? '', ...step.reply };
      } else {
        status = 404;
        out = { error: { message: `no route ${req.url}` } };
      }
      const text = JSON.stringify(out);
      res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(text)) });
      res.end(text);
    };
    if (step.delayMs) {
      const t = setTimeout(() => (timers.delete(t), send()), step.delayMs);
      timers.add(t);
    } else send();
  };
  const server = createServer((req, res) => void handle(req, res));
  server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
