// The gateway translates (docs/agents.md#translation): with only a Chat Completions upstream (its
// other routes answer 404), an agent speaking Anthropic Messages or OpenAI Responses gets answers in
// its own API — whole and streamed, tool calls included, read by the official OpenAI SDK — while the
// upstream sees only Chat Completions with its key; the record says which API each side spoke. The
// upstream's errors come back in the agent's error shape, its key scrubbed; count_tokens is answered
// without a call. With an upstream of the agent's own API, the request is passed through.
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { allUpstreams, anthropic, perTest, SECRET, sseData, trialSink, upstreamFor } from './helpers.ts';

const t = perTest();
const bash = { name: 'Bash', input_schema: { type: 'object', properties: { command: { type: 'string' } } } };

async function chatOnly() {
  const up = await t.upstream({ apis: ['chat'] });
  const gw = await t.gateway({ upstreams: { chat: upstreamFor(up.url, 'chat') } });
  const sink = trialSink();
  return { up, sink, reg: gw.register(sink.trial) };
}

describe('Anthropic Messages agent, Chat Completions upstream', () => {
  it('a whole answer with a tool call: tool_use block, usage; the upstream got Chat Completions with its key', async () => {
    const { up, sink, reg } = await chatOnly();
    up.setScript(() => ({
      tool_calls: [{ name: 'Bash', arguments: { command: 'ls' } }],
      usage: { input: 40, output: 9 },
    }));
    const res = await anthropic(reg.baseUrl, reg.token, {
      model: 'claude-x',
      max_tokens: 100,
      system: 'be brief',
      tools: [bash],
      messages: [{ role: 'user', content: 'list files' }],
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'run-model',
      content: [{ type: 'tool_use', id: 'call_0', name: 'Bash', input: { command: 'ls' } }],
      stop_reason: 'tool_use',
      usage: { input_tokens: 40, output_tokens: 9 },
    });
    expect(up.requests).toHaveLength(1);
    expect(up.requests[0]).toMatchObject({
      api: 'chat',
      headers: { authorization: `Bearer ${SECRET}` },
      body: {
        model: 'run-model',
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'list files' },
        ],
        tools: [{ type: 'function', function: { name: 'Bash' } }],
      },
    });
    expect(up.requests[0].headers['anthropic-version']).toBeUndefined();
    expect(sink.llmCalls()).toEqual([
      expect.objectContaining({
        api: 'messages',
        upstream_api: 'chat',
        tokens: { input: 40, output: 9 },
        stream: false,
      }),
    ]);
    expect(sink.events.filter((e) => e.type === 'tool_call')).toEqual([
      { type: 'tool_call', tool: 'Bash', args: { command: 'ls' }, id: 'call_0' },
    ]);
  });

  it('streamed: Messages events, the tool arguments joined, the usage recorded', async () => {
    const { up, sink, reg } = await chatOnly();
    up.setScript(() => ({
      text: 'running',
      tool_calls: [{ name: 'Bash', arguments: { command: 'ls -la' } }],
      usage: { input: 21, output: 4 },
    }));
    const res = await anthropic(reg.baseUrl, reg.token, {
      max_tokens: 100,
      stream: true,
      tools: [bash],
      messages: [{ role: 'user', content: 'go' }],
    });
    expect(res.contentType).toMatch(/^text\/event-stream/);
    const events = sseData(res.text);
    expect(events.map((e) => e.type)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const json = events.map((e) => e.delta?.partial_json ?? '').join('');
    expect(JSON.parse(json)).toEqual({ command: 'ls -la' });
    expect(up.requests[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(sink.llmCalls()).toEqual([
      expect.objectContaining({
        api: 'messages',
        upstream_api: 'chat',
        tokens: { input: 21, output: 4 },
        stream: true,
      }),
    ]);
  });

  it("the upstream's error in Anthropic's shape, its status kept and its key scrubbed", async () => {
    const { up, sink, reg } = await chatOnly();
    up.setScript(() => ({ status: 400, message: `context too long for key ${SECRET}` }));
    const res = await anthropic(reg.baseUrl, reg.token, { max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'context too long for key ***' },
    });
    expect(res.text).not.toContain(SECRET);
    expect(sink.llmCalls()[0]).toMatchObject({
      api: 'messages',
      upstream_api: 'chat',
      error: expect.stringContaining('HTTP 400'),
    });
  });

  it('a key echoed by the model is scrubbed from a whole translated answer', async () => {
    const { up, reg } = await chatOnly();
    up.setScript(() => ({ text: `the key is ${SECRET}!` }));
    const res = await anthropic(reg.baseUrl, reg.token, {
      max_tokens: 5,
      messages: [{ role: 'user', content: 'key?' }],
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).content).toEqual([{ type: 'text', text: 'the key is ***!' }]);
  });

  it('count_tokens is answered by the gateway: no upstream request, no model call', async () => {
    const { up, sink, reg } = await chatOnly();
    const body = { model: 'x', messages: [{ role: 'user', content: 'a'.repeat(400) }] };
    const res = await anthropic(reg.baseUrl, reg.token, body, '/v1/messages/count_tokens?beta=true');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).input_tokens).toBeGreaterThan(100);
    expect(up.requests).toHaveLength(0);
    expect(sink.llmCalls()).toHaveLength(0);
  });
});

describe('OpenAI Responses agent, Chat Completions upstream', () => {
  it('streamed, read by the official SDK: the function call and the usage; the tool output went back as a tool message', async () => {
    const { up, sink, reg } = await chatOnly();
    up.setScript(() => ({
      tool_calls: [{ name: 'exec_command', arguments: { cmd: 'echo 42' } }],
      usage: { input: 13, output: 7 },
    }));
    const client = new OpenAI({ baseURL: `${reg.baseUrl}/v1`, apiKey: reg.token, maxRetries: 0 });
    const stream = client.responses.stream({
      model: 'gpt-x',
      instructions: 'You are Codex.',
      input: [
        { role: 'user', content: 'go' },
        { type: 'function_call', call_id: 'call_prev', name: 'exec_command', arguments: '{"cmd":"ls"}' },
        { type: 'function_call_output', call_id: 'call_prev', output: 'a.txt' },
      ],
      tools: [
        {
          type: 'function',
          name: 'exec_command',
          strict: false,
          parameters: { type: 'object', properties: { cmd: { type: 'string' } } },
        },
      ],
    });
    const final = await stream.finalResponse();
    expect(final.status).toBe('completed');
    expect(final.output).toEqual([
      expect.objectContaining({
        type: 'function_call',
        call_id: 'call_0',
        name: 'exec_command',
        arguments: '{"cmd":"echo 42"}',
      }),
    ]);
    expect(final.usage).toMatchObject({ input_tokens: 13, output_tokens: 7, total_tokens: 20 });
    expect(up.requests[0].body.messages).toEqual([
      { role: 'system', content: 'You are Codex.' },
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_prev', type: 'function', function: { name: 'exec_command', arguments: '{"cmd":"ls"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_prev', content: 'a.txt' },
    ]);
    expect(sink.llmCalls()).toEqual([
      expect.objectContaining({
        api: 'responses',
        upstream_api: 'chat',
        tokens: { input: 13, output: 7 },
        stream: true,
      }),
    ]);
  });

  it("whole, read by the SDK: output_text; the upstream's 404 as the SDK's NotFoundError", async () => {
    const { up, reg } = await chatOnly();
    const client = new OpenAI({ baseURL: `${reg.baseUrl}/v1`, apiKey: reg.token, maxRetries: 0 });
    up.setScript(() => ({ text: 'hello there' }));
    const r = await client.responses.create({ model: 'm', input: 'hi' });
    expect(r.output_text).toBe('hello there');
    up.setScript(() => ({ status: 404, message: 'model not found' }));
    const err = await client.responses.create({ model: 'm', input: 'hi' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect((err as Error).message).toContain('model not found');
  });
});

describe('native pass-through stays', () => {
  it('with an upstream of the agent’s API the request goes to it unchanged, recorded as that API', async () => {
    const up = await t.upstream();
    const gw = await t.gateway({ upstreams: allUpstreams(up.url) });
    const sink = trialSink();
    const reg = gw.register(sink.trial);
    await anthropic(reg.baseUrl, reg.token, { max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    const client = new OpenAI({ baseURL: `${reg.baseUrl}/v1`, apiKey: reg.token, maxRetries: 0 });
    await client.responses.create({ model: 'm', input: 'hi' });
    expect(up.requests.map((r) => r.api)).toEqual(['messages', 'responses']);
    expect(sink.llmCalls().map((e) => [e.api, e.upstream_api])).toEqual([
      ['messages', 'messages'],
      ['responses', 'responses'],
    ]);
  });
});
