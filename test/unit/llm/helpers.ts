// Shared bits of the LLM tests: a config pointing at the scripted server, an event sink.
import type { LlmConfig } from '../../../src/config/schema.ts';
import type { NewEvent } from '../../../src/types.ts';
import { afterEach } from 'vitest';
import { startModelServer, type ModelServer, type Script } from '../../support/model-server.ts';

export const SECRET = 'sk-test-secret-4242';

export function llmConfig(url: string, over: Partial<LlmConfig> = {}): LlmConfig {
  return { base_url: url, api_key: SECRET, model: 'test-model', max_retries: 3, timeout_s: 5, ...over };
}

/** Backoff small enough that retry tests take milliseconds. */
export const FAST = { baseMs: 5, maxMs: 50 };

export function eventSink() {
  const events: NewEvent[] = [];
  return { events, onEvent: (e: NewEvent) => events.push(e) };
}

/** Scripted servers for one test file, all closed after each test. */
export function serverPerTest(): (script?: Script) => Promise<ModelServer> {
  const servers: ModelServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return async (script: Script = []) => {
    const s = await startModelServer(script);
    servers.push(s);
    return s;
  };
}

export const hello = { messages: [{ role: 'user' as const, content: 'hello' }] };
