// A model endpoint that answers something other than JSON (a web page at the configured address, a
// proxy's plain-text 502) is reported with the URL, the status and the start of the body (issue #40,
// item 5): through the real CLI, against a scripted server on loopback.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, onlyRunDir, results, runCli, tempDir } from '../support/cli.ts';
import { defined } from '../support/defined.ts';
import { MODEL, modelEnv } from './models-helpers.ts';

const local = join(FIXTURES, 'benchmarks/models-local'); // no sandbox
const askModel = join(FIXTURES, 'agents/ask-model.ts');
const PAGE = '<html><head><title>Welcome to nginx!</title></head><body>It works</body></html>';

type Answer = { status: number; type: string; body: string };

/** Answers GET …/models and POST …/chat/completions with what it is given, whatever was asked. */
async function serve(models: Answer, chat: Answer) {
  const srv = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const a = req.url?.endsWith('/models') ? models : chat;
      res.writeHead(a.status, { 'content-type': a.type }).end(a.body);
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v1`;
  return { url, close: () => new Promise<void>((r) => srv.close(() => r())) };
}

async function run(models: Answer, chat: Answer) {
  const server = await serve(models, chat);
  try {
    const o = tempDir('benchrig-notjson-');
    writeFileSync(join(o, 'run.toml'), '[llm]\nmax_retries = 0\n');
    const r = await runCli(
      [
        'run',
        local,
        '--agent',
        askModel,
        '--sample',
        'greet',
        '--mode',
        'single',
        '--output',
        o,
        '--config',
        join(o, 'run.toml'),
      ],
      { env: modelEnv(server.url), timeoutMs: 60_000 },
    );
    return { ...r, o, url: server.url };
  } finally {
    await server.close();
  }
}

const notFound: Answer = { status: 404, type: 'text/plain', body: 'no model list here' };

describe('a model endpoint that does not answer JSON', () => {
  it('a web page for the model list is refused at load: exit 2, the URL, the status and the page', async () => {
    const r = await run({ status: 200, type: 'text/html', body: PAGE }, notFound);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`HTTP 200 from GET ${r.url}/models, text/html not JSON: "<html><head><title>Welcome`);
    expect(r.stderr).toContain('its address comes from OPENAI_BASE_URL');
    expect(r.stderr).not.toMatch(/\n\s+at |SyntaxError|Unexpected token/);
  });

  it.each([
    [
      'a web page (200 text/html)',
      { status: 200, type: 'text/html; charset=utf-8', body: PAGE },
      'text/html',
      '<html>',
    ],
    [
      'a proxy error (502 text/plain)',
      { status: 502, type: 'text/plain', body: 'Bad Gateway\n\nupstream down' },
      'text/plain',
      'Bad Gateway upstream down',
    ],
  ])('%s to a call: MODEL_ERROR naming the URL, the status and the body', async (_, chat, type, start) => {
    const r = await run(notFound, chat);
    const dir = onlyRunDir(r.o, 'ask-model', 'models-local');
    const [res] = results(dir);
    expect(res.status, r.stderr).toBe('MODEL_ERROR');
    const message = defined(res.error).message;
    expect(message).toContain(
      `agent model ${MODEL} failed after 1 attempt: HTTP ${chat.status} from POST ${r.url}/chat/completions, ${type} not JSON: "${start}`,
    );
    expect(message).not.toMatch(/SyntaxError|Unexpected token|no choices/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
