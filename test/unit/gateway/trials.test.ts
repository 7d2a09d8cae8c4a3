// What a trial can rely on, with the agent as the adversary: its token is its only key (401 for any
// other, and for its own once the trial ended), its budget stops it after exactly N forwarded calls
// with a final 400, a protocol without an upstream is a clear error, and the upstream key is never
// in anything the agent or the trial sees.
import OpenAI, { AuthenticationError, BadRequestError } from 'openai';
import { describe, expect, it } from 'vitest';
import type { AgentContext } from '../../../src/agents/types.ts';
import createGreedy from '../../fixtures/agents/gateway-greedy.ts';
import { allUpstreams, anthropic, perTest, SECRET, trialSink, upstreamFor } from './helpers.ts';

const t = perTest();
const hello = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };

describe('tokens', () => {
  it("no token, a made-up one, or a finished trial's: 401 in the protocol's error shape, nothing forwarded", async () => {
    const up = await t.upstream();
    const gw = await t.gateway({ upstreams: allUpstreams(up.url) });
    const sink = trialSink();
    const reg = gw.register(sink.trial);

    const none = await fetch(`${reg.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(hello),
    });
    expect(none.status).toBe(401);
    expect((await none.json()).error).toMatchObject({
      code: 'invalid_api_key',
      message: expect.stringContaining('unknown or expired'),
    });
    const bad = await anthropic(reg.baseUrl, 'brg-made-up', { ...hello, max_tokens: 5 });
    expect(bad.status).toBe(401);
    expect(JSON.parse(bad.text)).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });

    const client = new OpenAI({ baseURL: `${reg.baseUrl}/v1`, apiKey: reg.token, maxRetries: 0 });
    await client.chat.completions.create(hello);
    reg.unregister();
    await expect(client.chat.completions.create(hello)).rejects.toBeInstanceOf(AuthenticationError);
    await expect(client.models.list()).rejects.toBeInstanceOf(AuthenticationError);
    expect(up.requests).toHaveLength(1);
    expect(sink.llmCalls()).toHaveLength(1);
  });

  it("unregister with a call in flight: the token is refused at once, settled() waits for that call's events", async () => {
    const up = await t.upstream();
    up.setScript(() => ({ text: 'slow', delayMs: 150, usage: { input: 4, output: 2 } }));
    const gw = await t.gateway({ upstreams: allUpstreams(up.url) });
    const sink = trialSink();
    const reg = gw.register(sink.trial);
    const client = new OpenAI({ baseURL: `${reg.baseUrl}/v1`, apiKey: reg.token, maxRetries: 0 });
    const inFlight = client.chat.completions.create(hello);
    while (up.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    reg.unregister();
    await expect(client.chat.completions.create(hello)).rejects.toBeInstanceOf(AuthenticationError);
    expect(sink.llmCalls()).toHaveLength(0);
    await reg.settled();
    expect(sink.llmCalls().map((e) => e.tokens)).toEqual([{ input: 4, output: 2 }]);
    expect((await inFlight).choices[0].message.content).toBe('slow');
    await reg.settled(); // idle: at once
  });

  it('maps each token to its own trial: events, usage and budgets never mix', async () => {
    const up = await t.upstream();
    const gw = await t.gateway({ upstreams: allUpstreams(up.url) });
    const a = trialSink('a#1', 1);
    const b = trialSink('b#1', 5);
    const ra = gw.register(a.trial);
    const rb = gw.register(b.trial);
    expect(ra.token).not.toBe(rb.token);
    const ca = new OpenAI({ baseURL: `${ra.baseUrl}/v1`, apiKey: ra.token, maxRetries: 0 });
    const cb = new OpenAI({ baseURL: `${rb.baseUrl}/v1`, apiKey: rb.token, maxRetries: 0 });
    await ca.chat.completions.create(hello);
    await expect(ca.chat.completions.create(hello)).rejects.toBeInstanceOf(BadRequestError);
    for (let i = 0; i < 3; i++) await cb.chat.completions.create(hello);
    expect([a.llmCalls().length, b.llmCalls().length]).toEqual([1, 3]);
    expect([ra.usage.calls, rb.usage.calls]).toEqual([1, 3]);
    expect(a.budgetStops).toHaveLength(1);
    expect(b.budgetStops).toHaveLength(0);
  });
});

describe('budget', () => {
  it('stops after exactly N calls: the next one is a 400 the SDK does not retry, never forwarded, and the trial is told once', async () => {
    const up = await t.upstream();
    const gw = await t.gateway({ upstreams: allUpstreams(up.url) });
    const sink = trialSink('s#1', 3);
    const reg = gw.register(sink.trial);
    const client = new OpenAI({ baseURL: `${reg.baseUrl}/v1`, apiKey: reg.token, maxRetries: 5 });
    for (let i = 0; i < 3; i++) await client.chat.completions.create(hello);
    const err = await client.chat.completions.create(hello).catch((e) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.code).toBe('llm_budget_exceeded');
    expect(err.message).toContain('max_llm_calls = 3');
    const viaAnthropic = await anthropic(reg.baseUrl, reg.token, { ...hello, max_tokens: 5, stream: true });
    expect(viaAnthropic.status).toBe(400);
    expect(JSON.parse(viaAnthropic.text)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });

    expect(up.requests).toHaveLength(3);
    expect(sink.llmCalls()).toHaveLength(3);
    expect(sink.budgetStops.map((e) => [e.limitKind, e.value, e.limit])).toEqual([['llm_calls', 4, 3]]);
  });

  it('an agent racing the budget with concurrent calls, retries and other tokens gets exactly N answers and no key', async () => {
    const up = await t.upstream();
    up.setScript(() => ({ text: 'slow answer', delayMs: 30 })); // the budget must be taken before the upstream's await
    const gw = await t.gateway({ upstreams: allUpstreams(up.url) });
    const old = gw.register(trialSink('old#1').trial);
    old.unregister();
    const sink = trialSink('s#1', 4);
    const reg = gw.register(sink.trial);
    const agent = createGreedy({
      options: { base_url: reg.baseUrl, token: reg.token, calls: 12, stale_token: old.token },
    } as unknown as AgentContext);
    const report = JSON.parse((await agent.respond('go')).content);

    expect(report.burst.filter((s: number) => s === 200)).toHaveLength(4);
    expect(report.burst.filter((s: number) => s === 400)).toHaveLength(8);
    expect([report.retried, report.madeUp, report.stale, report.asAnthropic]).toEqual([400, 401, 401, 400]);
    expect(up.requests).toHaveLength(4);
    expect(sink.llmCalls()).toHaveLength(4);
    expect(sink.budgetStops).toHaveLength(1);
    expect(report.seen).not.toContain(SECRET);
  });

  it('unlimited (null) forwards every call', async () => {
    const up = await t.upstream();
    const gw = await t.gateway({ upstreams: allUpstreams(up.url) });
    const reg = gw.register(trialSink('s#1', null).trial);
    const client = new OpenAI({ baseURL: `${reg.baseUrl}/v1`, apiKey: reg.token, maxRetries: 0 });
    for (let i = 0; i < 5; i++) await client.chat.completions.create(hello);
    expect(up.requests).toHaveLength(5);
  });
});

describe('upstreams', () => {
  it("a protocol with no upstream (nor a Chat Completions one to translate to): a 400 naming the table to set, in that protocol's shape, recorded, the trial told", async () => {
    const up = await t.upstream();
    const gw = await t.gateway({ upstreams: { responses: upstreamFor(up.url, 'responses') } });
    const sink = trialSink();
    const reg = gw.register(sink.trial);
    const res = await anthropic(reg.baseUrl, reg.token, {
      model: 'claude',
      max_tokens: 5,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(res.status).toBe(400);
    const body = JSON.parse(res.text);
    expect(body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(body.error.message).toContain('Anthropic Messages');
    expect(body.error.message).toContain('[llm.anthropic]');
    const client = new OpenAI({ baseURL: `${reg.baseUrl}/v1`, apiKey: reg.token, maxRetries: 0 });
    const err = await client.chat.completions.create({ model: 'm', messages: [] }).catch((e) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.message).toContain('[llm]');

    expect(up.requests).toHaveLength(0);
    expect(sink.llmCalls().map((e) => [e.api, e.error?.includes('no upstream speaks')])).toEqual([
      ['messages', true],
      ['chat', true],
    ]);
    expect(sink.modelErrors).toHaveLength(2);
  });

  it('retries a 503 itself (one call for the budget), and an upstream that stays down is a 502 and a model error', async () => {
    const up = await t.upstream();
    up.setScript((_r, n) => (n === 1 ? { status: 503, message: 'overloaded', retryAfterMs: 1 } : { text: 'ok' }));
    const gw = await t.gateway({ upstreams: allUpstreams(up.url) });
    const sink = trialSink('s#1', 2);
    const reg = gw.register(sink.trial);
    const client = new OpenAI({ baseURL: `${reg.baseUrl}/v1`, apiKey: reg.token, maxRetries: 0 });
    const c = await client.chat.completions.create(hello);
    expect(c.choices[0].message.content).toBe('ok');
    expect(up.requests).toHaveLength(2);
    expect(sink.llmCalls()).toHaveLength(1);
    expect(sink.llmCalls()[0].error).toBeUndefined();

    await up.close();
    const err = await client.chat.completions.create(hello).catch((e) => e);
    expect(err.status).toBe(502);
    expect(err.message).toMatch(/connection error: .*ECONNREFUSED/);
    expect(sink.llmCalls()[1].error).toMatch(/ECONNREFUSED/);
    expect(sink.modelErrors).toHaveLength(1);
    expect(sink.endpointFailures).toEqual([expect.stringMatching(/ECONNREFUSED/)]); // the endpoint's: MODEL_ERROR
  });

  it('tells the trial which failures are the endpoint’s: a 5xx after the retries, a refused key; not a 400, a 429, a timeout', async () => {
    const up = await t.upstream();
    const statuses = [503, 401, 404, 400, 429];
    up.setScript((_r, n) => ({ status: statuses[n - 1], message: `scripted ${statuses[n - 1]}` }));
    const gw = await t.gateway({ upstreams: { chat: upstreamFor(up.url, 'chat', { maxRetries: 0 }) } });
    const sink = trialSink('s#1', null);
    const reg = gw.register(sink.trial);
    const client = new OpenAI({ baseURL: `${reg.baseUrl}/v1`, apiKey: reg.token, maxRetries: 0 });
    const got = [];
    for (const _ of statuses) got.push((await client.chat.completions.create(hello).catch((e) => e)).status);
    expect(got).toEqual([502, 401, 404, 400, 502]); // 5xx and 429 retried by the gateway: 502; the rest as they came
    expect(sink.endpointFailures).toEqual([
      expect.stringContaining('HTTP 503: scripted 503'),
      expect.stringContaining('HTTP 401: scripted 401'),
      expect.stringContaining('HTTP 404: scripted 404'),
    ]);
    expect(sink.modelErrors).toEqual([expect.stringContaining('HTTP 503'), expect.stringContaining('HTTP 429')]); // the ones the agent got no answer for: its CLI is stopped
  });

  it('an upstream that echoes the key it was sent: the agent and the trial see *** instead', async () => {
    const up = await t.upstream();
    up.setScript((r) => ({
      status: 400,
      message: `bad request from ${r.headers.authorization ?? r.headers['x-api-key']}`,
    }));
    const gw = await t.gateway({ upstreams: allUpstreams(up.url) });
    const sink = trialSink();
    const reg = gw.register(sink.trial);
    const chat = await fetch(`${reg.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${reg.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(hello),
    });
    const chatText = await chat.text();
    const msg = await anthropic(reg.baseUrl, reg.token, { ...hello, max_tokens: 5 });
    expect([chat.status, msg.status]).toEqual([400, 400]);
    expect(up.requests.map((r) => r.headers.authorization ?? r.headers['x-api-key'])).toEqual([
      `Bearer ${SECRET}`,
      SECRET,
    ]);
    for (const text of [chatText, msg.text, JSON.stringify(sink.events)]) {
      expect(text).not.toContain(SECRET);
      expect(text).toContain('***');
    }
    expect(sink.llmCalls().map((e) => e.error)).toEqual([
      expect.stringContaining('HTTP 400'),
      expect.stringContaining('HTTP 400'),
    ]);
    expect(sink.modelErrors).toEqual([]); // the agent got an answer (an error one): its call, not the gateway's failure
  });
});
