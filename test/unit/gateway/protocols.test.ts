// The gateway over real HTTP on loopback, driven by the official OpenAI SDK (Chat Completions and
// Responses) and by raw fetch in Anthropic's wire format: answers pass through, the run's model and
// key are what the upstream sees, and every call is recorded with its tokens and tool calls.
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { allUpstreams, anthropic, bashTool, perTest, SECRET, sseData, trialSink } from './helpers.ts';

const t = perTest();
const toolStep = {
  tool_calls: [{ name: 'bash', arguments: { command: 'echo 42 > answer.txt' } }],
  usage: { input: 120, output: 15 },
};

describe('OpenAI Chat Completions', () => {
  it('forwards a whole answer, with the run model and key, and records the call and its tool call', async () => {
    const up = await t.upstream();
    up.setScript(() => toolStep);
    const gw = await t.gateway({ upstreams: allUpstreams(up.url) });
    const sink = trialSink();
    const reg = gw.register(sink.trial);
    const client = new OpenAI({ baseURL: `${reg.baseUrl}/v1`, apiKey: reg.token, maxRetries: 0 });

    const c = await client.chat.completions.create({
      model: 'what-the-cli-asks',
      messages: [{ role: 'user', content: 'go' }],
      tools: [bashTool],
    });
    expect(c.choices[0].message.tool_calls?.[0]).toMatchObject({
      function: { name: 'bash', arguments: '{"command":"echo 42 > answer.txt"}' },
    });
    expect(up.requests).toHaveLength(1);
    expect(up.requests[0].body.model).toBe('run-model');
    expect(up.requests[0].headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(JSON.stringify(up.requests[0].headers)).not.toContain(reg.token);
    expect(sink.events).toEqual([
      {
        type: 'llm_call',
        model: 'run-model',
        latency_ms: expect.any(Number),
        tokens: { input: 120, output: 15 },
        cost_usd: null, // the table of prices does not know run-model
        role: 'agent',
        api: 'chat',
        upstream_api: 'chat',
        stream: false,
      },
      { type: 'tool_call', tool: 'bash', args: { command: 'echo 42 > answer.txt' }, id: 'call_0' },
    ]);
    expect(reg.usage).toEqual({ calls: 1, tokens: { input: 120, output: 15 } });
  });

  it('streams: the SDK reads the chunks, tokens come from the final usage chunk, tool arguments are joined', async () => {
    const up = await t.upstream();
    up.setScript((_r, n) => (n === 1 ? toolStep : { text: 'done: 42', usage: { input: 200, output: 4 } }));
    const gw = await t.gateway({ upstreams: allUpstreams(up.url) });
    const sink = trialSink();
    const reg = gw.register(sink.trial);
    const client = new OpenAI({ baseURL: `${reg.baseUrl}/v1`, apiKey: reg.token, maxRetries: 0 });

    let args = '';
    for await (const chunk of await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'go' }],
      tools: [bashTool],
      stream: true,
      stream_options: { include_usage: true },
    }))
      args += chunk.choices[0]?.delta?.tool_calls?.[0]?.function?.arguments ?? '';
    expect(JSON.parse(args)).toEqual({ command: 'echo 42 > answer.txt' });
    let text = '';
    for await (const chunk of await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'go' }],
      stream: true,
      stream_options: { include_usage: true },
    }))
      text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('done: 42');

    expect(sink.llmCalls().map((e) => [e.tokens, e.stream, e.api])).toEqual([
      [{ input: 120, output: 15 }, true, 'chat'],
      [{ input: 200, output: 4 }, true, 'chat'],
    ]);
    expect(sink.events.filter((e) => e.type === 'tool_call')).toEqual([
      { type: 'tool_call', tool: 'bash', args: { command: 'echo 42 > answer.txt' }, id: 'call_0' },
    ]);
    expect(reg.usage.tokens).toEqual({ input: 320, output: 19 });
  });
});

describe('OpenAI Responses', () => {
  it('whole and streamed: usage and function calls recorded, the SDK sees the completed response', async () => {
    const up = await t.upstream();
    up.setScript(() => ({ ...toolStep, tool_calls: [{ name: 'exec_command', arguments: { cmd: 'ls' } }] }));
    const gw = await t.gateway({ upstreams: allUpstreams(up.url) });
    const sink = trialSink();
    const reg = gw.register(sink.trial);
    const client = new OpenAI({ baseURL: `${reg.baseUrl}/v1`, apiKey: reg.token, maxRetries: 0 });

    const whole = await client.responses.create({
      model: 'm',
      input: 'list files',
      tools: [{ type: 'function', name: 'exec_command', parameters: {}, strict: false }],
    });
    expect(whole.output[0]).toMatchObject({ type: 'function_call', name: 'exec_command' });
    const types: string[] = [];
    let completed: typeof whole | null = null;
    for await (const ev of await client.responses.create({ model: 'm', input: 'list files', stream: true })) {
      types.push(ev.type);
      if (ev.type === 'response.completed') completed = ev.response;
    }
    expect(types.at(-1)).toBe('response.completed');
    expect(completed?.usage?.input_tokens).toBe(120);
    expect(up.requests.map((r) => [r.api, r.body.model, r.headers.authorization])).toEqual([
      ['responses', 'run-model', `Bearer ${SECRET}`],
      ['responses', 'run-model', `Bearer ${SECRET}`],
    ]);
    expect(sink.llmCalls().map((e) => [e.api, e.stream, e.tokens])).toEqual([
      ['responses', false, { input: 120, output: 15 }],
      ['responses', true, { input: 120, output: 15 }],
    ]);
    expect(sink.events.flatMap((e) => (e.type === 'tool_call' ? [[e.tool, e.args, e.id]] : []))).toEqual([
      ['exec_command', { cmd: 'ls' }, 'call_0'],
      ['exec_command', { cmd: 'ls' }, 'call_0'],
    ]);
  });
});

describe('Anthropic Messages', () => {
  it('as Claude Code sends it (x-api-key, ?beta=true, streamed): passed through, key swapped, tokens and tool_use recorded', async () => {
    const up = await t.upstream();
    up.setScript(() => ({
      text: 'I will run it',
      tool_calls: [{ name: 'Bash', arguments: { command: 'echo 42 > answer.txt', description: 'write' } }],
      usage: { input: 300, output: 22 },
    }));
    const gw = await t.gateway({ upstreams: allUpstreams(up.url) });
    const sink = trialSink();
    const reg = gw.register(sink.trial);
    const body = {
      model: 'claude-x',
      max_tokens: 100,
      stream: true,
      metadata: { user_id: 'session_1' },
      messages: [
        { role: 'user', content: 'go' },
        { role: 'system', content: 'mid-conversation system item' },
      ],
    };

    const res = await anthropic(reg.baseUrl, reg.token, body);
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^text\/event-stream/);
    const events = sseData(res.text);
    expect(events[0].type).toBe('message_start');
    const json = events
      .filter((e) => e.delta?.type === 'input_json_delta')
      .map((e) => e.delta?.partial_json)
      .join('');
    expect(JSON.parse(json)).toEqual({ command: 'echo 42 > answer.txt', description: 'write' });

    const got = up.requests[0];
    expect(got.path).toBe('/v1/messages?beta=true');
    expect(got.headers['x-api-key']).toBe(SECRET);
    expect(got.headers['anthropic-version']).toBe('2023-06-01');
    expect(got.headers['anthropic-beta']).toBe('tools-2024-04-04');
    expect(got.headers.authorization).toBeUndefined();
    expect(got.body).toEqual({ ...body, model: 'run-model' }); // untouched but for the model
    expect(sink.events).toEqual([
      {
        type: 'llm_call',
        model: 'run-model',
        latency_ms: expect.any(Number),
        tokens: { input: 300, output: 22 },
        cost_usd: null, // the table of prices does not know run-model
        role: 'agent',
        api: 'messages',
        upstream_api: 'messages',
        stream: true,
      },
      {
        type: 'tool_call',
        tool: 'Bash',
        args: { command: 'echo 42 > answer.txt', description: 'write' },
        id: 'toolu_0',
      },
    ]);
  });

  it('a whole answer, and count_tokens: forwarded but neither a call nor against the budget', async () => {
    const up = await t.upstream();
    const gw = await t.gateway({ upstreams: allUpstreams(up.url) });
    const sink = trialSink('s#1', 1);
    const reg = gw.register(sink.trial);
    const count = await anthropic(
      reg.baseUrl,
      reg.token,
      { model: 'c', messages: [{ role: 'user', content: 'hi' }] },
      '/v1/messages/count_tokens',
    );
    expect(count.status).toBe(200);
    expect(JSON.parse(count.text).input_tokens).toBeGreaterThan(0);
    const res = await anthropic(reg.baseUrl, reg.token, {
      model: 'c',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({
      type: 'message',
      content: [{ type: 'text', text: 'answer 1' }],
      usage: { input_tokens: 7, output_tokens: 3 },
    });
    expect(sink.llmCalls()).toHaveLength(1);
    expect(sink.budgetStops).toEqual([]);
    expect(reg.usage.calls).toBe(1);
  });

  it('HEAD / (the Claude Code preflight) answers without a token and says nothing about the run', async () => {
    const gw = await t.gateway({ upstreams: {} });
    const { baseUrl } = await gw.start();
    const res = await fetch(`${baseUrl}/`, { method: 'HEAD' });
    expect(res.status).toBe(200);
  });
});

describe('GET /v1/models', () => {
  it('lists the run models for a registered token, in a shape both SDK families read', async () => {
    const up = await t.upstream();
    const gw = await t.gateway({
      upstreams: { ...allUpstreams(up.url), messages: { ...allUpstreams(up.url).messages, model: 'claude-run' } },
    });
    const reg = gw.register(trialSink().trial);
    const client = new OpenAI({ baseURL: `${reg.baseUrl}/v1`, apiKey: reg.token, maxRetries: 0 });
    const ids: string[] = [];
    for await (const m of client.models.list()) ids.push(m.id);
    expect(ids.sort()).toEqual(['claude-run', 'run-model']);
    expect(up.requests).toHaveLength(0); // answered by the gateway, offline
  });
});
