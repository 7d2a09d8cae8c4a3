// The model client against the scripted OpenAI-compatible server over real HTTP on loopback.
import { describe, expect, it } from 'vitest';
import { LlmBudgetExceeded, LlmError } from '../../../src/errors.ts';
import { createLlmClient } from '../../../src/llm/client.ts';
import { eventSink, FAST, hello, llmConfig, SECRET, serverPerTest } from './helpers.ts';

const server = serverPerTest();

describe('chat', () => {
  it('answers a plain reply with the default model, config temperature and usage as tokens', async () => {
    const s = await server([{ content: 'hi there', usage: { prompt_tokens: 12, completion_tokens: 3 } }]);
    const sink = eventSink();
    const llm = createLlmClient({
      config: llmConfig(s.url, { temperature: 0.2, max_tokens: 99 }),
      role: 'agent',
      budget: 5,
      onEvent: sink.onEvent,
    });
    const res = await llm.chat(hello);
    expect(res).toEqual({
      message: { role: 'assistant', content: 'hi there' },
      usage: { input_tokens: 12, output_tokens: 3 },
    });
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0].body).toMatchObject({
      model: 'test-model',
      temperature: 0.2,
      max_tokens: 99,
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(s.requests[0].body.tools).toBeUndefined();
    expect(sink.events).toHaveLength(1);
    expect(sink.events[0]).toMatchObject({
      type: 'llm_call',
      model: 'test-model',
      role: 'agent',
      tokens: { input: 12, output: 3 },
    });
    expect(sink.events[0]).not.toHaveProperty('error');
    expect(llm.tokens).toEqual({ input: 12, output: 3 });
  });

  it('request fields override the config defaults', async () => {
    const s = await server([{ content: 'x' }]);
    const llm = createLlmClient({ config: llmConfig(s.url, { temperature: 0.2 }), role: 'agent', budget: null });
    await llm.chat({ ...hello, model: 'other-model', temperature: 0, max_tokens: 7 });
    expect(s.requests[0].body).toMatchObject({ model: 'other-model', temperature: 0, max_tokens: 7 });
  });

  it('maps tool calls both ways', async () => {
    const s = await server([{ tool_calls: [{ id: 'call_9', name: 'bash', arguments: { command: 'ls' } }] }]);
    const llm = createLlmClient({ config: llmConfig(s.url), role: 'agent', budget: null });
    const tools = [
      { type: 'function' as const, function: { name: 'bash', parameters: { type: 'object', properties: {} } } },
    ];
    const res = await llm.chat({
      tools,
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"pwd"}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: '/work' },
      ],
    });
    expect(res.message).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }],
    });
    const sent = s.requests[0].body;
    expect(sent.tools).toEqual(tools);
    expect(sent.messages[2]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"pwd"}' } }],
    });
    expect(sent.messages[3]).toEqual({ role: 'tool', tool_call_id: 'c1', content: '/work' });
  });

  it('works with an empty api key against a local server', async () => {
    const s = await server([{ content: 'ok' }]);
    const llm = createLlmClient({ config: llmConfig(s.url, { api_key: '' }), role: 'agent', budget: null });
    expect((await llm.chat(hello)).message.content).toBe('ok');
  });

  it('sends the api key as the Authorization header and never puts it in events or errors', async () => {
    const s = await server([{ content: 'ok' }, { status: 401, message: `Incorrect API key provided: ${SECRET}` }]);
    const sink = eventSink();
    const llm = createLlmClient({
      config: llmConfig(s.url),
      role: 'agent',
      budget: null,
      onEvent: sink.onEvent,
      retry: FAST,
    });
    await llm.chat(hello);
    const err = await llm.chat(hello).catch((e) => e);
    expect(s.requests[0].headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(err).toBeInstanceOf(LlmError);
    expect(err.message).toContain('401');
    expect(s.requests).toHaveLength(2); // 401 is not retried
    expect(`${err.message} ${err.stack}`).not.toContain(SECRET);
    expect(JSON.stringify(sink.events)).not.toContain(SECRET);
  });

  it('a refusal says whether a key was set and where it is set; a 404 where the model name comes from', async () => {
    const s = await server([
      { status: 401, message: 'no key' },
      { status: 401, message: 'bad key' },
      { status: 404, message: 'no such model' },
    ]);
    const fail = (api_key: string, role: 'agent' | 'judge' = 'agent') =>
      createLlmClient({ config: llmConfig(s.url, { api_key }), role, budget: null, retry: FAST })
        .chat(hello)
        .then(
          () => null,
          (e: Error) => e.message,
        );
    expect(await fail('')).toMatch(
      /HTTP 401: no key \(no key is set: set OPENAI_API_KEY, or the api_key of \[llm\]\)$/,
    );
    expect(await fail(SECRET)).toMatch(
      /HTTP 401: bad key \(the key was refused: check OPENAI_API_KEY, or the api_key of \[llm\]\)$/,
    );
    expect(await fail(SECRET, 'judge')).toMatch(
      /HTTP 404: no such model \(check the model's name: --model, BENCHRIG_MODEL or the model of \[judge\.llm\] \(else \[llm\]\); and the endpoint: OPENAI_BASE_URL or the base_url of \[judge\.llm\] \(else \[llm\]\)\)$/,
    );
  });

  it('computes cost only when a price is set', async () => {
    const s = await server([
      { content: 'a', usage: { prompt_tokens: 1000, completion_tokens: 500 } },
      { content: 'b', usage: { prompt_tokens: 1000, completion_tokens: 500 } },
    ]);
    const priced = createLlmClient({
      config: llmConfig(s.url, { price: { input: 1, output: 2 } }),
      role: 'agent',
      budget: null,
    });
    await priced.chat(hello);
    expect(priced.costUsd).toBeCloseTo(0.002, 10);
    const unpriced = createLlmClient({ config: llmConfig(s.url), role: 'agent', budget: null });
    await unpriced.chat(hello);
    expect(unpriced.costUsd).toBeNull();
  });
});

describe('budget', () => {
  it('lets exactly N calls reach the server; call N+1 throws LlmBudgetExceeded without a request', async () => {
    const s = await server(() => ({ content: 'ok' }));
    const sink = eventSink();
    const llm = createLlmClient({ config: llmConfig(s.url), role: 'agent', budget: 3, onEvent: sink.onEvent });
    for (let i = 0; i < 3; i++) await llm.chat(hello);
    expect(llm.callsUsed).toBe(3);
    expect(llm.callsLeft).toBe(0);
    const err = await llm.chat(hello).catch((e) => e);
    expect(err).toBeInstanceOf(LlmBudgetExceeded);
    expect(err).toMatchObject({ limitKind: 'llm_calls', value: 4, limit: 3 });
    expect(s.requests).toHaveLength(3);
    expect(sink.events).toHaveLength(3);
  });

  it('counts the simulated user as user_llm_calls and leaves the judge unlimited', async () => {
    const s = await server(() => ({ content: 'ok' }));
    const user = createLlmClient({ config: llmConfig(s.url), role: 'user', budget: 0 });
    await expect(user.chat(hello)).rejects.toMatchObject({
      name: 'LlmBudgetExceeded',
      limitKind: 'user_llm_calls',
      limit: 0,
    });
    const judge = createLlmClient({ config: llmConfig(s.url), role: 'judge', budget: null });
    await judge.chat(hello);
    expect(judge.callsLeft).toBeNull();
    expect(judge.callsUsed).toBe(1);
    expect(s.requests).toHaveLength(1);
  });

  it('counts a retried call once', async () => {
    const s = await server([{ status: 500 }, { content: 'ok' }]);
    const llm = createLlmClient({ config: llmConfig(s.url), role: 'agent', budget: 1, retry: FAST });
    await llm.chat(hello);
    expect(s.requests).toHaveLength(2);
    expect(llm.callsUsed).toBe(1);
  });
});
