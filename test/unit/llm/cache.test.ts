// The record/replay cache: a recorded trial replays with the server gone, identically.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/agents/types.ts';
import { LlmBudgetExceeded, LlmError } from '../../../src/errors.ts';
import { cacheKey } from '../../../src/llm/cache.ts';
import { createLlmClient } from '../../../src/llm/client.ts';
import { startModelServer } from '../../support/model-server.ts';
import { eventSink, llmConfig } from './helpers.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'benchrig-llm-cache-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const conversation: ChatRequest[] = [
  { messages: [{ role: 'user', content: 'first' }] },
  { messages: [{ role: 'user', content: 'second' }], tools: [{ type: 'function', function: { name: 'submit' } }] },
];

describe('llm cache', () => {
  it('records, then replays with the server closed: same responses, same events, no network', async () => {
    const s = await startModelServer([
      { content: 'one', usage: { prompt_tokens: 5, completion_tokens: 1 }, delayMs: 30 },
      { tool_calls: [{ id: 'c1', name: 'submit', arguments: { answer: '42' } }] },
    ]);
    const rec = eventSink();
    const recorder = createLlmClient({
      config: llmConfig(s.url),
      role: 'agent',
      budget: 5,
      onEvent: rec.onEvent,
      cache: { mode: 'record', dir },
    });
    const recorded = [];
    for (const req of conversation) recorded.push(await recorder.chat(req));
    await s.close();
    expect((await readdir(dir)).filter((f) => f.endsWith('.json'))).toHaveLength(2);
    expect((await readdir(dir)).some((f) => f.endsWith('.tmp'))).toBe(false);

    const rep = eventSink();
    // A different key and base_url: neither is part of the cache key.
    const replayer = createLlmClient({
      config: llmConfig('http://127.0.0.1:9/v1', { api_key: 'sk-other' }),
      role: 'agent',
      budget: 5,
      onEvent: rep.onEvent,
      cache: { mode: 'replay', dir },
    });
    const replayed = [];
    for (const req of conversation) replayed.push(await replayer.chat(req));
    expect(replayed).toEqual(recorded);
    expect(rep.events).toEqual(rec.events);
    expect(rep.events[0]).toMatchObject({ tokens: { input: 5, output: 1 } });
    expect(replayer.callsUsed).toBe(2);
  });

  it('keeps the answers of trials apart: trial 2 sends what trial 1 sent and gets its own answer back', async () => {
    const s = await startModelServer([{ content: 'first try' }, { content: 'second try' }]);
    const req = conversation[0];
    const client = (mode: 'record' | 'replay', trial: number, url = s.url) =>
      createLlmClient({
        config: llmConfig(url),
        role: 'agent',
        budget: null,
        cache: { mode, dir, scope: `trial ${trial}` },
      });
    expect((await client('record', 1).chat(req)).message.content).toBe('first try');
    expect((await client('record', 2).chat(req)).message.content).toBe('second try');
    await s.close();
    expect((await client('replay', 2, 'http://127.0.0.1:9/v1').chat(req)).message.content).toBe('second try');
    expect((await client('replay', 1, 'http://127.0.0.1:9/v1').chat(req)).message.content).toBe('first try');
  });

  it('in record mode serves a request already stored without calling the server', async () => {
    const s = await startModelServer(() => ({ content: 'live' }));
    try {
      const llm = createLlmClient({
        config: llmConfig(s.url),
        role: 'agent',
        budget: null,
        cache: { mode: 'record', dir },
      });
      await llm.chat(conversation[0]);
      await llm.chat(conversation[0]);
      expect(s.requests).toHaveLength(1);
      expect(llm.callsUsed).toBe(2);
    } finally {
      await s.close();
    }
  });

  it('replay of a request never seen fails with a message saying how to record it', async () => {
    const sink = eventSink();
    const llm = createLlmClient({
      config: llmConfig('http://127.0.0.1:9/v1'),
      role: 'agent',
      budget: 5,
      onEvent: sink.onEvent,
      cache: { mode: 'replay', dir },
    });
    const err = await llm.chat(conversation[0]).catch((e) => e);
    expect(err).toBeInstanceOf(LlmError);
    const hash = cacheKey({ model: 'test-model', messages: [{ role: 'user', content: 'first' }] });
    expect(err.message).toBe(
      `llm-cache replay: no recorded response for request ${hash} (model test-model); run once with --llm-cache record`,
    );
    expect(sink.events).toHaveLength(1);
    expect(sink.events[0]).toMatchObject({ type: 'llm_call', error: err.message });
  });

  it('replayed calls count against the budget', async () => {
    const s = await startModelServer(() => ({ content: 'x' }));
    await createLlmClient({
      config: llmConfig(s.url),
      role: 'agent',
      budget: null,
      cache: { mode: 'record', dir },
    }).chat(conversation[0]);
    await s.close();
    const llm = createLlmClient({ config: llmConfig(s.url), role: 'agent', budget: 1, cache: { mode: 'replay', dir } });
    await llm.chat(conversation[0]);
    await expect(llm.chat(conversation[0])).rejects.toBeInstanceOf(LlmBudgetExceeded);
  });

  it('keys on what decides the answer, independent of key order', () => {
    const base = { model: 'm', messages: [{ role: 'user', content: 'a' }] };
    expect(cacheKey(base)).toBe(cacheKey({ messages: [{ content: 'a', role: 'user' }], model: 'm' }));
    expect(cacheKey(base)).not.toBe(cacheKey({ ...base, temperature: 0 }));
    expect(cacheKey(base)).not.toBe(cacheKey({ ...base, model: 'n' }));
    expect(cacheKey(base)).toMatch(/^[0-9a-f]{64}$/);
  });
});
