// Issue #37: an installed agent's calls through the gateway are in the transcript's one shape,
// whatever wire API it speaks (Chat Completions, Responses, Anthropic Messages), whole or streamed,
// answered by an upstream of its own API or translated to Chat Completions: the history it sent
// (system, user, the assistant's tool call, the tool's result), the tools offered, the parameters,
// and the answer assembled (text, tool call, finish reason, usage); a refused call: status and body.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Recorder } from '../../../src/trial/recorder.ts';
import type { GatewayOptions, Protocol } from '../../../src/gateway/types.ts';
import { allUpstreams, anthropic, perTest, trialSink, upstreamFor } from './helpers.ts';

const t = perTest();

const SYSTEM = 'You are a shell agent.';
const ASK = 'How many lines in a.txt?';
const RESULT = '42 a.txt';
const ARGS = { command: 'wc -l a.txt' };

/** The same conversation, one tool call and its result, in each API's request shape. */
function request(api: Protocol, stream: boolean): object {
  const schema = { type: 'object', properties: { command: { type: 'string' } } };
  if (api === 'chat')
    return {
      model: 'm',
      stream,
      ...(stream ? { stream_options: { include_usage: true } } : {}),
      temperature: 0.2,
      max_tokens: 300,
      tools: [{ type: 'function', function: { name: 'bash', description: 'run', parameters: schema } }],
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: ASK },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: JSON.stringify(ARGS) } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: RESULT },
      ],
    };
  if (api === 'responses')
    return {
      model: 'm',
      stream,
      temperature: 0.2,
      max_output_tokens: 300,
      instructions: SYSTEM,
      tools: [{ type: 'function', name: 'bash', description: 'run', parameters: schema }],
      input: [
        { role: 'user', content: ASK },
        { type: 'function_call', call_id: 'call_1', name: 'bash', arguments: JSON.stringify(ARGS) },
        { type: 'function_call_output', call_id: 'call_1', output: RESULT },
      ],
    };
  return {
    model: 'c',
    stream,
    temperature: 0.2,
    max_tokens: 300,
    system: SYSTEM,
    tools: [{ name: 'bash', description: 'run', input_schema: schema }],
    messages: [
      { role: 'user', content: ASK },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'bash', input: ARGS }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: RESULT }] },
    ],
  };
}

async function send(baseUrl: string, token: string, api: Protocol, body: object): Promise<number> {
  if (api === 'messages') return (await anthropic(baseUrl, token, body)).status;
  const path = api === 'chat' ? '/chat/completions' : '/responses';
  const res = await fetch(`${baseUrl}/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await res.text();
  return res.status;
}

async function oneCall(api: Protocol, stream: boolean, translated: boolean, cache?: GatewayOptions['cache']) {
  const up = await t.upstream();
  up.setScript(() => ({
    text: 'It has 42 lines.',
    tool_calls: [{ name: 'submit', arguments: { answer: '42' } }],
    usage: { input: 120, output: 15 },
  }));
  const upstreams = translated ? { chat: upstreamFor(up.url, 'chat') } : allUpstreams(up.url);
  const gw = await t.gateway({ upstreams, ...(cache ? { cache } : {}) });
  const sink = trialSink();
  const recorder = new Recorder();
  sink.trial.onEvent = recorder.record;
  sink.trial.onCall = recorder.recordCall;
  const reg = gw.register(sink.trial);
  const status = await send(reg.baseUrl, reg.token, api, request(api, stream));
  await reg.settled();
  return { status, recorder, upstreamApi: up.requests[0]?.api };
}

const API_NAME = { chat: 'chat', responses: 'responses', messages: 'anthropic' } as const;
const CASES = (['chat', 'responses', 'messages'] as const).flatMap((api) =>
  [false, true].flatMap((stream) =>
    (api === 'chat' ? [false] : [false, true]).map((translated) => ({ api, stream, translated })),
  ),
);

describe('the transcript of a gateway call', () => {
  it.each(CASES)('$api, stream $stream, translated $translated: one shape', async ({ api, stream, translated }) => {
    const { status, recorder, upstreamApi } = await oneCall(api, stream, translated);
    expect(status).toBe(200);
    expect(upstreamApi).toBe(translated ? 'chat' : api);
    const tr = recorder.transcript?.toJSON();
    const [call] = tr?.calls ?? [];
    expect(call).toMatchObject({ id: 'c1', source: 'installed', api: API_NAME[api], model: 'run-model' });
    expect(recorder.events.find((e) => e.type === 'llm_call')).toMatchObject({ call: 'c1' });
    const msg = (key: string) => tr?.messages[key];
    const input = call.input.map(msg);
    expect(input).toEqual([
      { role: 'system', content: SYSTEM },
      { role: 'user', content: ASK },
      { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', name: 'bash', arguments: expect.any(String) }] },
      { role: 'tool', tool_call_id: 'call_1', content: RESULT },
    ]);
    expect(JSON.parse(input[2]?.tool_calls?.[0].arguments ?? '')).toEqual(ARGS);
    expect(call.tools).toEqual([{ name: 'bash', description: 'run', parameters: expect.any(Object) }]);
    expect(call.params).toMatchObject({ temperature: 0.2, max_tokens: 300 });
    const answer = msg(call.output?.message ?? '');
    expect(answer).toMatchObject({ role: 'assistant', content: 'It has 42 lines.' });
    expect(answer?.tool_calls?.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([['submit', { answer: '42' }]]);
    expect(call.output?.finish_reason).toMatch(/tool|completed/);
    expect(call.output?.usage).toMatchObject({ input: 120, output: 15 });
  });

  it('--llm-cache replay: a stored streamed answer is assembled into the same transcript as the live one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'benchrig-gw-transcript-'));
    try {
      const live = await oneCall('messages', true, false, { mode: 'record', dir });
      const replayed = await oneCall('messages', true, false, { mode: 'replay', dir });
      expect(replayed.upstreamApi).toBeUndefined(); // answered from the cache
      const strip = (r: typeof live) =>
        r.recorder.transcript?.toJSON()?.calls.map(({ started_at: _s, latency_ms: _l, ...c }) => c);
      expect(strip(replayed)).toEqual(strip(live));
      expect(replayed.recorder.transcript?.toJSON()?.messages).toEqual(live.recorder.transcript?.toJSON()?.messages);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a refused call keeps its status and body, and no answer', async () => {
    const up = await t.upstream();
    up.setScript(() => ({ status: 400, message: 'context too long: 9000 tokens' }));
    const gw = await t.gateway({ upstreams: allUpstreams(up.url) });
    const sink = trialSink();
    const recorder = new Recorder();
    sink.trial.onEvent = recorder.record;
    sink.trial.onCall = recorder.recordCall;
    const reg = gw.register(sink.trial);
    for (const api of ['chat', 'responses', 'messages'] as const)
      expect(await send(reg.baseUrl, reg.token, api, request(api, false))).toBe(400);
    await reg.settled();
    const calls = recorder.transcript?.toJSON()?.calls ?? [];
    expect(calls.map((c) => [c.api, c.output, c.error?.status])).toEqual([
      ['chat', null, 400],
      ['responses', null, 400],
      ['anthropic', null, 400],
    ]);
    for (const c of calls) expect(c.error?.body).toContain('context too long: 9000 tokens');
  });
});
