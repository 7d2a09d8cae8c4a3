// What an agent in the sandbox can do to make its model calls cheaper on paper: stream a Chat
// Completions call without `stream_options.include_usage` (the upstream then sends no usage: 0 tokens,
// $0), or ask for `n` completions in one call (n answers for one budget slot). The gateway asks for
// the usage itself and keeps the extra chunk from an agent that did not ask; `n` takes n slots.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { allUpstreams, perTest, sseData, trialSink, upstreamFor } from './helpers.ts';

const t = perTest();
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** USD per million tokens: 7 input and 3 output tokens a completion (the scripted upstream's usage). */
const price = { input: 1, output: 2 };
const cost = (input: number, output: number) => (input * price.input + output * price.output) / 1e6;

/** A streamed call as a CLI in the sandbox sends it: its token, its own model name, raw SSE back. */
async function streamed(baseUrl: string, token: string, extra: Record<string, unknown>) {
  const res = await fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true, ...extra }),
  });
  return { status: res.status, text: await res.text() };
}

type Chunk = { choices?: { index: number }[]; usage?: unknown; error?: { message: string; code?: string } };
const chunks = (text: string) => sseData(text) as Chunk[];

async function setup(budget: number | null, cache?: { mode: 'record' | 'replay'; dir: string }, url?: string) {
  const up = await t.upstream();
  const base = url ?? up.url;
  const gw = await t.gateway({
    upstreams: { ...allUpstreams(base), chat: upstreamFor(base, 'chat', { price }) },
    ...(cache ? { cache } : {}),
  });
  const sink = trialSink('s#1', budget, 'trial 1');
  return { up, sink, reg: gw.register(sink.trial) };
}

describe('a streamed Chat Completions call passed through', () => {
  it('without include_usage: its tokens and cost are recorded, and the agent never sees the usage chunk', async () => {
    const { up, sink, reg } = await setup(10);
    const bare = await streamed(reg.baseUrl, reg.token, {});
    const other = await streamed(reg.baseUrl, reg.token, { stream_options: { include_obfuscation: false } });
    const asked = await streamed(reg.baseUrl, reg.token, { stream_options: { include_usage: true } });

    for (const r of [bare, other]) {
      expect(r.status).toBe(200);
      expect(r.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
      expect(chunks(r.text).length).toBeGreaterThan(1);
      expect(chunks(r.text).filter((c) => !c.choices?.length || c.usage)).toEqual([]);
    }
    expect(chunks(asked.text).at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 7, completion_tokens: 3 } });
    expect(up.requests.map((r) => r.body.stream_options)).toEqual([
      { include_usage: true },
      { include_obfuscation: false, include_usage: true },
      { include_usage: true },
    ]);
    expect(sink.llmCalls().map((e) => [e.tokens, e.cost_usd])).toEqual(
      Array(3).fill([{ input: 7, output: 3 }, cost(7, 3)]),
    );
    expect(reg.usage).toEqual({ calls: 3, tokens: { input: 21, output: 9 } });
  });

  it('recorded without include_usage, replayed: the same tokens, and the replayed agent sees no usage chunk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'benchrig-gw-usage-'));
    dirs.push(dir);
    const rec = await setup(10, { mode: 'record', dir });
    const recorded = await streamed(rec.reg.baseUrl, rec.reg.token, {});
    const rep = await setup(10, { mode: 'replay', dir }, 'http://127.0.0.1:9/v1');
    const replayed = await streamed(rep.reg.baseUrl, rep.reg.token, {});
    const asked = await streamed(rep.reg.baseUrl, rep.reg.token, { stream_options: { include_usage: true } });

    expect(replayed.text).toBe(recorded.text);
    expect(chunks(replayed.text).filter((c) => c.usage)).toEqual([]);
    expect(chunks(asked.text).at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 7 } });
    expect(rep.sink.llmCalls().map((e) => e.tokens)).toEqual([
      { input: 7, output: 3 },
      { input: 7, output: 3 },
    ]);
    expect(rep.sink.modelErrors).toEqual([]);
  });
});

describe('n completions in one call', () => {
  it('take n slots of the budget: n past what is left is a 400 naming n, never sent, and the trial is not stopped', async () => {
    const { up, sink, reg } = await setup(4);
    const three = await streamed(reg.baseUrl, reg.token, { n: 3 });
    expect(three.status).toBe(200);
    expect(new Set(chunks(three.text).flatMap((c) => c.choices?.map((x) => x.index)))).toEqual(new Set([0, 1, 2]));
    expect(sink.llmCalls().map((e) => [e.tokens, e.cost_usd])).toEqual([[{ input: 7, output: 9 }, cost(7, 9)]]);

    const again = await streamed(reg.baseUrl, reg.token, { n: 3 });
    expect(again.status).toBe(400);
    expect(JSON.parse(again.text).error).toMatchObject({
      code: 'llm_budget_exceeded',
      message: expect.stringMatching(/n = 3 asks for 3 completions, .* and 1 is left \(max_llm_calls = 4\)/),
    });
    expect(sink.budgetStops).toEqual([]);

    expect((await streamed(reg.baseUrl, reg.token, { n: 1 })).status).toBe(200); // the last slot
    const past = await streamed(reg.baseUrl, reg.token, {});
    expect(past.status).toBe(400);
    expect(JSON.parse(past.text).error.message).toContain('budget is spent (max_llm_calls = 4)');
    expect(sink.budgetStops.map((e) => [e.value, e.limit])).toEqual([[5, 4]]);
    expect(up.requests.map((r) => r.body.n)).toEqual([3, 1]);
    expect(sink.llmCalls()).toHaveLength(2);
  });

  it('an n that is not a whole number of at least 1 is a 400 naming n, never sent, even without a budget', async () => {
    const { up, sink, reg } = await setup(null);
    for (const n of ['3', 2.5, 0, -1, true, { a: 1 }]) {
      const r = await streamed(reg.baseUrl, reg.token, { n });
      expect(r.status, JSON.stringify(n)).toBe(400);
      expect(JSON.parse(r.text).error.message, JSON.stringify(n)).toContain('`n`');
    }
    expect((await streamed(reg.baseUrl, reg.token, { n: null })).status).toBe(200); // null: the default, 1
    expect(up.requests).toHaveLength(1);
    expect(sink.llmCalls()).toHaveLength(1);
  });
});
