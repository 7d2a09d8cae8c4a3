// Which endpoint and key serve which protocol: [llm] always (Chat Completions), [llm.responses] and
// [llm.anthropic] only when set; [llm]'s key never goes to another host.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/load.ts';
import type { LlmConfig } from '../../../src/config/schema.ts';
import { upstreamsFromConfig, upstreamUrl } from '../../../src/gateway/upstreams.ts';
import { gatewayForRun } from '../../../src/gateway/index.ts';
import { startUpstreamServer } from '../../support/upstream-server.ts';
import { anthropic, trialSink } from './helpers.ts';
import { defined } from '../../support/defined.ts';

const dir = mkdtempSync(join(tmpdir(), 'benchrig-gw-cfg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function toml(text: string): string {
  const file = join(dir, `c${Math.random().toString(36).slice(2)}.toml`);
  writeFileSync(file, text);
  return file;
}

const llm: LlmConfig = {
  base_url: 'https://main.example/v1',
  api_key: 'sk-main',
  model: 'gpt-x',
  max_retries: 3,
  timeout_s: 120,
};

describe('upstreamsFromConfig', () => {
  it('[llm] alone: Chat Completions only', () => {
    const u = upstreamsFromConfig(llm);
    expect(Object.keys(u)).toEqual(['chat']);
    expect(u.chat).toMatchObject({
      baseUrl: 'https://main.example/v1',
      apiKey: 'sk-main',
      model: 'gpt-x',
      timeoutMs: 120_000,
      maxRetries: 3,
    });
  });

  it('an empty [llm.responses]: the main endpoint speaks it too, with its key', () => {
    const u = upstreamsFromConfig({ ...llm, responses: {} });
    expect(u.responses).toMatchObject({
      protocol: 'responses',
      baseUrl: 'https://main.example/v1',
      apiKey: 'sk-main',
      model: 'gpt-x',
    });
  });

  it("[llm.anthropic] on another host: its own key or none, never [llm]'s", () => {
    expect(
      upstreamsFromConfig({ ...llm, anthropic: { base_url: 'https://api.anthropic.com/v1', model: 'claude-y' } })
        .messages,
    ).toMatchObject({ baseUrl: 'https://api.anthropic.com/v1', apiKey: '', model: 'claude-y' });
    expect(
      upstreamsFromConfig({
        ...llm,
        anthropic: { base_url: 'https://api.anthropic.com/v1', api_key: 'sk-ant', timeout_s: 9 },
      }).messages,
    ).toMatchObject({ apiKey: 'sk-ant', model: 'gpt-x', timeoutMs: 9000 });
  });

  it('reads [llm.anthropic] from TOML with ${VAR} expansion, and names an unknown key in it', async () => {
    const file = toml(
      '[llm.anthropic]\nbase_url = "https://api.anthropic.com/v1"\napi_key = "${ANTHROPIC_API_KEY}"\nmodel = "claude-y"\n',
    );
    const { config } = await resolveConfig({ env: { ANTHROPIC_API_KEY: 'sk-ant-env' }, benchmarkToml: file });
    expect(upstreamsFromConfig(config.llm).messages).toMatchObject({
      baseUrl: 'https://api.anthropic.com/v1',
      apiKey: 'sk-ant-env',
      model: 'claude-y',
    });
    const bad = toml('[llm.responses]\nbase_ulr = "x"\n');
    const err = await resolveConfig({ env: {}, benchmarkToml: bad }).catch((e) => e);
    expect(err.message).toContain(`${bad}: key llm.responses.base_ulr: unknown key`);
  });

  it('routes join base_url and keep the query string', () => {
    const u = defined(upstreamsFromConfig({ ...llm, anthropic: { base_url: 'http://127.0.0.1:5/v1/' } }).messages);
    expect(upstreamUrl(u, '/messages', '?beta=true').href).toBe('http://127.0.0.1:5/v1/messages?beta=true');
  });
});

describe('gatewayForRun', () => {
  it('serves what the config sets up: [llm] for Chat Completions, [llm.anthropic] with its own key and model', async () => {
    const up = await startUpstreamServer();
    const file = toml(
      `[llm]\nbase_url = "${up.url}"\napi_key = "sk-main-1234"\nmodel = "gpt-run"\n[llm.anthropic]\nbase_url = "${up.url}/"\napi_key = "sk-ant-5678"\nmodel = "claude-run"\n`,
    );
    const { config } = await resolveConfig({ env: {}, benchmarkToml: file });
    const gw = gatewayForRun(config.llm);
    try {
      await gw.start();
      const reg = gw.register(trialSink().trial);
      const chat = await fetch(`${reg.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${reg.token}` },
        body: JSON.stringify({ model: 'x', messages: [] }),
      });
      expect(chat.status).toBe(200);
      expect((await anthropic(reg.baseUrl, reg.token, { model: 'x', max_tokens: 1, messages: [] })).status).toBe(200);
      const resp = await fetch(`${reg.baseUrl}/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${reg.token}` },
        body: JSON.stringify({ model: 'x', input: 'hi' }),
      });
      expect(resp.status).toBe(200); // no [llm.responses]: translated to [llm]'s Chat Completions
      expect(up.requests.map((r) => [r.api, r.body.model, r.headers.authorization ?? r.headers['x-api-key']])).toEqual([
        ['chat', 'gpt-run', 'Bearer sk-main-1234'],
        ['messages', 'claude-run', 'sk-ant-5678'],
        ['chat', 'gpt-run', 'Bearer sk-main-1234'],
      ]);
    } finally {
      await gw.close();
      await up.close();
    }
  });
});
