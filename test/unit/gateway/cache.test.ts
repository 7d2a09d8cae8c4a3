// `--llm-cache` through the gateway: a recorded run answers the same requests offline, streamed
// answers replay as SSE, the volatile fields CLIs fill per session do not break the match, and a
// request that was never recorded is a clear miss.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI, { BadRequestError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { gatewayCacheKey } from '../../../src/gateway/cache-key.ts';
import { allUpstreams, anthropic, perTest, SECRET, sseData, trialSink } from './helpers.ts';

const t = perTest();
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const cacheDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'benchrig-gw-cache-'));
  dirs.push(d);
  return d;
};

/** One agent session in all three protocols; `session` is what a CLI changes from run to run. */
async function session(baseUrl: string, token: string, session: string) {
  const client = new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey: token, maxRetries: 0 });
  const out: unknown[] = [];
  out.push(
    await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'one' }], user: session }),
  );
  let streamed = '';
  for await (const c of await client.chat.completions.create({
    model: 'm',
    messages: [{ role: 'user', content: 'two' }],
    stream: true,
    stream_options: { include_usage: session.endsWith('a') },
  }))
    streamed += c.choices[0]?.delta?.content ?? '';
  out.push(streamed);
  const types: string[] = [];
  for await (const ev of await client.responses.create({
    model: 'm',
    input: 'three',
    stream: true,
    prompt_cache_key: session,
  }))
    types.push(ev.type);
  out.push(types);
  const msg = await anthropic(baseUrl, token, {
    model: 'c',
    max_tokens: 9,
    stream: true,
    metadata: { user_id: `user_x_session_${session}` },
    messages: [{ role: 'user', content: 'four' }],
  });
  out.push([msg.status, msg.contentType.split(';')[0], sseData(msg.text)]);
  return out;
}

describe('llm-cache through the gateway', () => {
  it('record, then replay with the upstream down: the same answers (SSE as SSE), the same events', async () => {
    const dir = cacheDir();
    const up = await t.upstream();
    up.setScript((r, n) => ({
      text: `recorded ${r.api} ${n}`,
      tool_calls: r.api === 'messages' ? [{ name: 'Bash', arguments: { command: 'ls' } }] : undefined,
      usage: { input: 10 * n, output: n },
    }));
    const rec = await t.gateway({ upstreams: allUpstreams(up.url), cache: { mode: 'record', dir } });
    const s1 = trialSink('s#1', 10, 'trial 1');
    const r1 = rec.register(s1.trial);
    const recorded = await session(r1.baseUrl, r1.token, 'session-a');
    expect(up.requests).toHaveLength(4);
    const files = readdirSync(dir);
    expect(files).toHaveLength(4);
    for (const f of files) expect(readFileSync(join(dir, f), 'utf8')).not.toContain(SECRET);
    await up.close();

    const rep = await t.gateway({ upstreams: allUpstreams('http://127.0.0.1:9/v1'), cache: { mode: 'replay', dir } });
    const s2 = trialSink('s#1', 10, 'trial 1');
    const r2 = rep.register(s2.trial);
    const replayed = await session(r2.baseUrl, r2.token, 'session-b'); // other user, prompt_cache_key, user_id, stream_options
    expect(replayed).toEqual(recorded);
    expect((replayed[3] as unknown[])[1]).toBe('text/event-stream');
    const strip = (es: Record<string, unknown>[]) => es.map(({ latency_ms: _latency, ...e }) => e);
    expect(strip(s2.events)).toEqual(strip(s1.events));
    expect(s2.llmCalls().map((e) => e.tokens)).toEqual([
      { input: 10, output: 1 },
      { input: 20, output: 2 },
      { input: 30, output: 3 },
      { input: 40, output: 4 },
    ]);
    expect(s2.events.filter((e) => e.type === 'tool_call')).toEqual([
      { type: 'tool_call', tool: 'Bash', args: { command: 'ls' }, id: 'toolu_0' },
    ]);
    expect(s2.modelErrors).toEqual([]);
  });

  it("replay: a request never recorded (or another trial's scope) is a 400 naming the miss, recorded, never forwarded", async () => {
    const dir = cacheDir();
    const up = await t.upstream();
    const rec = await t.gateway({ upstreams: allUpstreams(up.url), cache: { mode: 'record', dir } });
    const r1 = rec.register(trialSink('s#1', 10, 'trial 1').trial);
    await new OpenAI({ baseURL: `${r1.baseUrl}/v1`, apiKey: r1.token, maxRetries: 0 }).chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'one' }],
    });

    const rep = await t.gateway({ upstreams: allUpstreams(up.url), cache: { mode: 'replay', dir } });
    const other = trialSink('s#2', 10, 'trial 2');
    const r2 = rep.register(other.trial);
    const err = await new OpenAI({ baseURL: `${r2.baseUrl}/v1`, apiKey: r2.token, maxRetries: 0 }).chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'one' }] })
      .catch((e) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.message).toContain('llm-cache replay: no recorded response');
    expect(up.requests).toHaveLength(1);
    expect(other.llmCalls()[0].error).toContain('no recorded response');
    expect(other.modelErrors).toHaveLength(1);
  });

  it('the key ignores exactly the volatile fields', () => {
    const body = { model: 'run-model', messages: [{ role: 'user', content: 'x' }], stream: true, temperature: 0 };
    const k = gatewayCacheKey('/messages', body, 'trial 1');
    const volatile = {
      metadata: { user_id: 'session_9' },
      user: 'u',
      safety_identifier: 's',
      prompt_cache_key: 'conv-1',
      prompt_cache_retention: '24h',
      stream_options: { include_usage: true },
    };
    expect(gatewayCacheKey('/messages', { ...body, ...volatile }, 'trial 1')).toBe(k);
    expect(
      gatewayCacheKey(
        '/messages',
        { temperature: 0, stream: true, messages: body.messages, model: 'run-model' },
        'trial 1',
      ),
    ).toBe(k); // key order
    for (const changed of [
      { stream: false },
      { temperature: 1 },
      { messages: [{ role: 'user', content: 'y' }] },
      { store: true },
    ])
      expect(gatewayCacheKey('/messages', { ...body, ...changed }, 'trial 1'), JSON.stringify(changed)).not.toBe(k);
    expect(gatewayCacheKey('/chat/completions', body, 'trial 1')).not.toBe(k);
    expect(gatewayCacheKey('/messages', body, 'trial 2')).not.toBe(k);
  });
});
