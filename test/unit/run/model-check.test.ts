// The start-time model check (docs/agents.md#models) against real HTTP servers on loopback: what a user sees when
// the URL or the key is wrong, and that a server without a model list is not refused.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../../src/cli/main.ts';
import type { LlmConfig } from '../../../src/config/schema.ts';
import { checkModelEndpoints } from '../../../src/run/model-check.ts';
import { SharedChecks } from '../../../src/run/shared-checks.ts';

interface Seen {
  path: string;
  headers: IncomingMessage['headers'];
}
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => s.close(() => r()))));
});

/** A server answering every request with `status`; what it was asked, in order. */
async function serve(status: number): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    res.writeHead(status, { 'content-type': 'application/json' }).end('{"data":[]}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const llm = (base_url: string, extra: Partial<LlmConfig> = {}): LlmConfig => ({
  base_url,
  api_key: 'sk-check',
  model: 'm',
  max_retries: 3,
  timeout_s: 120,
  ...extra,
});

/** The error the check threw, or null; with the CLI's exit code for it. */
async function check(
  cfg: LlmConfig,
  protocols: Parameters<typeof checkModelEndpoints>[1] = ['chat'],
  origins?: Parameters<typeof checkModelEndpoints>[2],
) {
  try {
    await checkModelEndpoints(cfg, protocols, origins);
    return null;
  } catch (err) {
    return { message: (err as Error).message, exit: exitCodeFor(err) };
  }
}

describe('the start-time model check', () => {
  it('an unreachable endpoint is exit 3 naming the URL it tried, at once (no retries)', async () => {
    const port = await closedPort();
    const t0 = Date.now();
    const err = await check(llm(`http://127.0.0.1:${port}/v1`));
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(err?.exit).toBe(3);
    expect(err?.message).toContain(
      `the model endpoint http://127.0.0.1:${port}/v1/models is unreachable (ECONNREFUSED)`,
    );
  });

  it('an unreachable endpoint names where its address came from: OPENAI_BASE_URL, or the default', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/v1`;
    const templates = { 'llm.base_url': '${OPENAI_BASE_URL:-https://api.openai.com/v1}' };
    const fromEnv = await check(llm(url), ['chat'], { templates, env: { OPENAI_BASE_URL: url } });
    expect(fromEnv?.message).toMatch(
      /unreachable \(ECONNREFUSED\); its address comes from OPENAI_BASE_URL \(read by \[llm\] base_url\): check it$/,
    );
    const byDefault = await check(llm(url), ['chat'], { templates, env: {} });
    expect(byDefault?.message).toContain(
      'it is the default of [llm] base_url (OPENAI_BASE_URL not set): set OPENAI_BASE_URL (or [llm] base_url) to your endpoint, and BENCHRIG_MODEL (or --model) to its model',
    );
  });

  it.each([401, 403])(
    'HTTP %i with a key is exit 2 naming the variable the key came from, never the key',
    async (status) => {
      const s = await serve(status);
      const err = await check(llm(s.url), ['chat'], {
        templates: { 'llm.api_key': '${OPENAI_API_KEY:-}' },
        env: { OPENAI_API_KEY: 'sk-check' },
      });
      expect(err?.exit).toBe(2);
      expect(err?.message).toBe(
        `the key from OPENAI_API_KEY (read by [llm] api_key) was refused by ${s.url} (HTTP ${status} from GET ${s.url}/models); check OPENAI_API_KEY (or [llm] api_key)`,
      );
      expect(err?.message).not.toContain('sk-check');
      // asked once, with the key as an OpenAI client sends it
      expect(s.seen.map((q) => q.path)).toEqual(['/v1/models']);
      expect(s.seen[0].headers.authorization).toBe('Bearer sk-check');
    },
  );

  it('OPENAI_API_KEY unset: the message says it is not set, not that a key was refused', async () => {
    const s = await serve(401);
    const err = await check(llm(s.url, { api_key: '' }), ['chat'], {
      templates: { 'llm.api_key': '${OPENAI_API_KEY:-}' },
      env: {},
    });
    expect(err?.exit).toBe(2);
    expect(err?.message).toBe(
      `the model endpoint ${s.url} refused a request without a key (HTTP 401 from GET ${s.url}/models): OPENAI_API_KEY is not set. Set OPENAI_API_KEY (or [llm] api_key)`,
    );
    expect(err?.message).not.toMatch(/was refused/);
    expect(s.seen[0].headers.authorization).toBeUndefined();
  });

  it("a key written in a file, or read from a benchmark's own ${VAR}, is named so", async () => {
    const s = await serve(401);
    const literal = await check(llm(s.url), ['chat'], { templates: {}, env: {} });
    expect(literal?.message).toMatch(/^the key written in \[llm\] api_key was refused by .*; check \[llm\] api_key$/);
    const own = await check(llm(s.url), ['chat'], {
      templates: { 'llm.api_key': '${ACME_KEY}' },
      env: { ACME_KEY: 'sk-check' },
    });
    expect(own?.message).toMatch(/^the key from ACME_KEY \(read by \[llm\] api_key\) was refused/);
  });

  it.each([200, 404, 500])('HTTP %i passes: only a refused key or no answer fails the run', async (status) => {
    const s = await serve(status);
    expect(await check(llm(s.url))).toBeNull();
    expect(s.seen).toHaveLength(1);
  });

  it('[llm.anthropic] is checked with its own key as x-api-key; a refusal names that table', async () => {
    const chat = await serve(200);
    const anthropic = await serve(401);
    const cfg = llm(chat.url, { anthropic: { base_url: anthropic.url, api_key: 'sk-ant-check' } });
    const err = await check(cfg, ['messages']);
    expect(err?.exit).toBe(2);
    expect(err?.message).toContain(`the key written in [llm.anthropic] api_key was refused by ${anthropic.url}`);
    expect(anthropic.seen[0].headers['x-api-key']).toBe('sk-ant-check');
    expect(anthropic.seen[0].headers['anthropic-version']).toBeTruthy();
    expect(anthropic.seen[0].headers.authorization).toBeUndefined();
    expect(chat.seen).toEqual([]); // only the protocols the agent uses
  });

  it('an upstream shared by two protocols is asked once; an agent with no model is not checked', async () => {
    const s = await serve(200);
    expect(await check(llm(s.url, { responses: {} }), ['chat', 'responses'])).toBeNull();
    expect(s.seen).toHaveLength(1);
    expect(await check(llm(s.url), [])).toBeNull();
    expect(s.seen).toHaveLength(1);
  });

  it("a job's cells on one endpoint ask it once, whatever their models; another key asks again", async () => {
    const s = await serve(200);
    const shared = new SharedChecks();
    const origins = { templates: {}, env: {} };
    for (const model of ['m1', 'm2', 'm1']) await checkModelEndpoints(llm(s.url, { model }), ['chat'], origins, shared);
    expect(s.seen).toHaveLength(1);
    await checkModelEndpoints(llm(s.url, { api_key: 'sk-other' }), ['chat'], origins, shared);
    expect(s.seen.map((q) => q.headers.authorization)).toEqual(['Bearer sk-check', 'Bearer sk-other']);
  });

  it("a job's cells on a refusing endpoint each get the refusal, from one request", async () => {
    const s = await serve(401);
    const shared = new SharedChecks();
    const origins = { templates: { 'llm.api_key': '${OPENAI_API_KEY:-}' }, env: { OPENAI_API_KEY: 'sk-check' } };
    const refusals = [];
    for (const model of ['m1', 'm2'])
      refusals.push(
        await checkModelEndpoints(llm(s.url, { model }), ['chat'], origins, shared).then(
          () => null,
          (err: Error) => err.message,
        ),
      );
    expect(refusals[0]).toMatch(/^the key from OPENAI_API_KEY \(read by \[llm\] api_key\) was refused/);
    expect(refusals[1]).toBe(refusals[0]);
    expect(s.seen).toHaveLength(1);
  });
});
