// Retries: against the scripted server for behaviour, and the pure backoff rules directly.
import { describe, expect, it } from 'vitest';
import { APIConnectionError, APIError } from 'openai';
import { LlmError } from '../../../src/errors.ts';
import { createLlmClient } from '../../../src/llm/client.ts';
import { backoffMs, isRetryable, serverDelayMs } from '../../../src/llm/retry.ts';
import { startModelServer } from '../../support/model-server.ts';
import { eventSink, FAST, hello, llmConfig, serverPerTest } from './helpers.ts';

const server = serverPerTest();

describe('retries over HTTP', () => {
  it('retries a 500 and then succeeds, with one event for the call', async () => {
    const s = await server([{ status: 500 }, { status: 503 }, { content: 'ok' }]);
    const sink = eventSink();
    const llm = createLlmClient({
      config: llmConfig(s.url),
      role: 'agent',
      budget: null,
      onEvent: sink.onEvent,
      retry: FAST,
    });
    expect((await llm.chat(hello)).message.content).toBe('ok');
    expect(s.requests).toHaveLength(3);
    expect(sink.events).toHaveLength(1);
    expect(sink.events[0]).not.toHaveProperty('error');
  });

  it('waits at least the retry-after of a 429', async () => {
    const s = await server([{ status: 429, retryAfter: 1 }, { content: 'ok' }]);
    const llm = createLlmClient({
      config: llmConfig(s.url),
      role: 'agent',
      budget: null,
      retry: { baseMs: 1, maxMs: 5000 },
    });
    const t0 = performance.now();
    await llm.chat(hello);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(1000);
    expect(s.requests).toHaveLength(2);
  });

  it('retries a dropped connection', async () => {
    const s = await server([{ drop: true }, { content: 'after drop' }]);
    const llm = createLlmClient({ config: llmConfig(s.url), role: 'agent', budget: null, retry: FAST });
    expect((await llm.chat(hello)).message.content).toBe('after drop');
    expect(s.requests).toHaveLength(2);
  });

  it('retries a timed-out request', async () => {
    const s = await server([{ delayMs: 2000, content: 'late' }, { content: 'on time' }]);
    const llm = createLlmClient({
      config: llmConfig(s.url, { timeout_s: 0.2 }),
      role: 'agent',
      budget: null,
      retry: FAST,
    });
    expect((await llm.chat(hello)).message.content).toBe('on time');
  });

  it('throws LlmError naming the status and server message once retries are exhausted', async () => {
    const s = await server(() => ({ status: 500, message: 'the model is on fire' }));
    const sink = eventSink();
    const llm = createLlmClient({
      config: llmConfig(s.url, { max_retries: 2 }),
      role: 'agent',
      budget: null,
      onEvent: sink.onEvent,
      retry: FAST,
    });
    const err = await llm.chat(hello).catch((e) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect(err.message).toMatch(/500/);
    expect(err.message).toContain('the model is on fire');
    expect(err.status).toBe(500);
    expect(s.requests).toHaveLength(3); // first attempt + max_retries
    expect(sink.events).toHaveLength(1);
    expect(sink.events[0]).toMatchObject({ type: 'llm_call', error: expect.stringContaining('500') });
  });

  it('does not retry a 400', async () => {
    const s = await server(() => ({ status: 400, message: 'bad request' }));
    const llm = createLlmClient({ config: llmConfig(s.url), role: 'agent', budget: null, retry: FAST });
    await expect(llm.chat(hello)).rejects.toThrow(/400.*bad request/);
    expect(s.requests).toHaveLength(1);
  });

  it('fails quickly with LlmError when nothing listens on the port', async () => {
    const s = await startModelServer();
    await s.close();
    const llm = createLlmClient({
      config: llmConfig(s.url, { max_retries: 2 }),
      role: 'agent',
      budget: null,
      retry: FAST,
    });
    const t0 = performance.now();
    const err = await llm.chat(hello).catch((e) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect(err.message).toMatch(/ECONNREFUSED/);
    expect(err.message).toMatch(/3 attempts/);
    expect(performance.now() - t0).toBeLessThan(3000);
  });

  it('rejects promptly when the signal aborts mid-request', async () => {
    const s = await server([{ delayMs: 10_000, content: 'never' }]);
    const ac = new AbortController();
    const llm = createLlmClient({
      config: llmConfig(s.url),
      role: 'agent',
      budget: null,
      signal: ac.signal,
      retry: FAST,
    });
    const t0 = performance.now();
    setTimeout(() => ac.abort(new Error('trial timeout')), 50);
    await expect(llm.chat(hello)).rejects.toThrow('trial timeout');
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('rejects promptly when the signal aborts during a backoff wait', async () => {
    const s = await server(() => ({ status: 429, retryAfter: 30 }));
    const ac = new AbortController();
    const llm = createLlmClient({
      config: llmConfig(s.url),
      role: 'agent',
      budget: null,
      signal: ac.signal,
      retry: { baseMs: 1, maxMs: 60_000 },
    });
    const t0 = performance.now();
    setTimeout(() => ac.abort(), 100);
    await expect(llm.chat(hello)).rejects.toThrow(/abort/i);
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(s.requests).toHaveLength(1);
  });
});

describe('backoff rules', () => {
  it('reads retry-after in seconds, as an HTTP date, and retry-after-ms first', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(serverDelayMs(new Headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(serverDelayMs(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }), now)).toBe(5000);
    expect(serverDelayMs(new Headers({ 'retry-after': '2', 'retry-after-ms': '150' }), now)).toBe(150);
    expect(serverDelayMs(new Headers({ 'retry-after': 'soon' }), now)).toBeNull();
    expect(serverDelayMs(new Headers(), now)).toBeNull();
  });

  it('uses full jitter under an exponential ceiling, capped, and caps a server delay', () => {
    expect(backoffMs(0, { baseMs: 500, maxMs: 30_000 }, undefined, () => 0.999)).toBe(499);
    expect(backoffMs(3, { baseMs: 500, maxMs: 30_000 }, undefined, () => 0.5)).toBe(2000);
    expect(backoffMs(20, { baseMs: 500, maxMs: 30_000 }, undefined, () => 0.999)).toBe(29_970);
    expect(backoffMs(1, {}, undefined, () => 0)).toBe(0);
    const rateLimited = new APIError(429, {}, 'slow down', new Headers({ 'retry-after': '120' }));
    expect(backoffMs(0, { maxMs: 30_000 }, rateLimited)).toBe(30_000);
  });

  it('classifies errors: 429/5xx/network retryable, 4xx client errors not', () => {
    const status = (n: number) => new APIError(n, {}, 'x', new Headers());
    for (const n of [429, 500, 502, 503, 504]) expect(isRetryable(status(n))).toBe(true);
    for (const n of [400, 401, 403, 404]) expect(isRetryable(status(n))).toBe(false);
    expect(isRetryable(new APIConnectionError({ message: 'Connection error.' }))).toBe(true);
    expect(isRetryable(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isRetryable(new Error('socket hang up'))).toBe(true);
    expect(isRetryable(new Error('bad things'))).toBe(false);
  });
});
