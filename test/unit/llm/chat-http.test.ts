// The model call on node:http (src/llm/chat-http.ts), against real servers on loopback: what Node's
// client does its own way is checked here — a connection that ends inside the answer, keep-alive,
// repeated headers, and an https endpoint (a certificate made with openssl by
// test/support/self-signed.ts, trusted by a child process through NODE_EXTRA_CA_CERTS).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { APIConnectionError, APIError } from 'openai/error';
import { afterEach, describe, expect, it } from 'vitest';
import { postChat } from '../../../src/llm/chat-http.ts';
import { selfSigned } from '../../support/self-signed.ts';
import { llmConfig } from './helpers.ts';

const ANSWER = JSON.stringify({
  id: 'c1',
  object: 'chat.completion',
  created: 0,
  model: 'm',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'pong' } }],
});
const params = { model: 'm', messages: [{ role: 'user' as const, content: 'ping' }] };

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((ok) => s.close(ok));
  }
});

async function serve(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

describe('a chat completion over node:http', () => {
  it('a connection that ends inside the answer is a connection error, not a hang or a JSON error', async () => {
    const url = await serve(
      createServer((req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(ANSWER.length) });
        res.write(ANSWER.slice(0, 20));
        setTimeout(() => res.socket?.destroy(), 20);
      }),
    );
    const err = await postChat(llmConfig(url), params).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(APIConnectionError);
  });

  it('keeps its connection alive between calls, and joins a repeated header as Headers does', async () => {
    const sockets = new Set<Socket>();
    const url = await serve(
      createServer((req, res) => {
        sockets.add(req.socket);
        req.resume();
        req.on('end', () => {
          res.setHeader('x-seen', ['a', 'b']);
          res.writeHead(429, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'slow down', type: 'rate_limit' } }));
        });
      }),
    );
    const errors: unknown[] = [];
    for (let i = 0; i < 3; i++) errors.push(await postChat(llmConfig(url), params).catch((e: unknown) => e));
    expect(sockets.size).toBe(1);
    const first = errors[0] as APIError;
    expect(first).toBeInstanceOf(APIError);
    expect(first.status).toBe(429);
    expect(first.headers?.get('x-seen')).toBe('a, b');
  });

  it('calls an https endpoint, trusting what Node trusts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chat-https-'));
    try {
      const key = join(dir, 'key.pem');
      const cert = join(dir, 'cert.pem');
      selfSigned({ key, cert, subject: '/CN=localhost', days: 1, ext: 'subjectAltName=DNS:localhost' });
      const server = createTlsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
        req.resume();
        req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(ANSWER));
      });
      const port = Number(new URL(await serve(server)).port);
      const chatHttp = fileURLToPath(new URL('../../../src/llm/chat-http.ts', import.meta.url));
      const program = `
        const { postChat } = await import(${JSON.stringify(chatHttp)});
        const config = { base_url: 'https://localhost:${port}/v1', api_key: 'k', model: 'm', max_retries: 0, timeout_s: 5 };
        const a = await postChat(config, ${JSON.stringify(params)});
        console.log(a.choices[0].message.content);`;
      const run = (env: NodeJS.ProcessEnv) =>
        // Asynchronous: the server answers from this process meanwhile.
        new Promise<string>((resolve) =>
          execFile(
            process.execPath,
            ['--import', 'tsx', '--input-type=module', '-e', program],
            { env: { ...process.env, ...env } },
            (error, stdout, stderr) => resolve(error ? `failed: ${stderr}` : stdout.trim()),
          ),
        );
      expect(await run({ NODE_EXTRA_CA_CERTS: cert })).toBe('pong');
      // Not trusted: refused, as any https client of Node's refuses it.
      expect(await run({ NODE_EXTRA_CA_CERTS: '' })).toMatch(/failed: .*Connection error/s);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
