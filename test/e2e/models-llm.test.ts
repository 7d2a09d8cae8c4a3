// The model client, budgets and simulated users through the real CLI, against the scripted
// OpenAI-compatible server on loopback. No sandbox: these benchmarks need none.
import { createServer } from 'node:net';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, onlyRunDir, results, runCli, tempDir } from '../support/cli.ts';
import { startModelServer } from '../support/model-server.ts';
import { filesContaining, MODEL, modelEnv, SECRET } from './models-helpers.ts';
import { defined } from '../support/defined.ts';
import { eventsOf } from '../support/events.ts';
import type { WireBody } from '../support/http.ts';

const bench = (name: string) => join(FIXTURES, 'benchmarks', name);
const outputs: string[] = [];
const out = () => {
  const d = tempDir('benchrig-models-');
  outputs.push(d);
  return d;
};
const submit = (answer: string) => ({ tool_calls: [{ name: 'submit', arguments: { answer } }] });

afterAll(() => {
  // No run folder, log, report or cache entry may hold the API key.
  for (const d of outputs) expect(filesContaining(d, SECRET), d).toEqual([]);
});

describe('models: client, retries and simulated users', () => {
  it('retries after a 500 and a 429 (honouring retry-after), and the trial passes', async () => {
    const server = await startModelServer([{ status: 500 }, { status: 429, retryAfter: 1 }, submit('hello there')]);
    try {
      const o = out();
      const t0 = Date.now();
      const r = await runCli(
        ['run', bench('models-local'), '--agent', 'react', '--sample', 'greet', '--mode', 'single', '--output', o],
        { env: modelEnv(server.url) },
      );
      const [res] = results(onlyRunDir(o, 'react', 'models-local'));
      expect(res.status, r.stderr).toBe('PASSED');
      expect(server.requests).toHaveLength(3);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(1000); // the server asked for 1s
      expect(server.requests[0].headers.authorization).toBe(`Bearer ${SECRET}`);
      expect(server.requests.every((q) => q.body.model === MODEL)).toBe(true);
      expect(res.metadata.llm_calls).toBe(1); // retries of one call count once
    } finally {
      await server.close();
    }
  });

  it('a dead model server stops the run before its first trial: exit 3 naming the URL, no run folder, quickly', async () => {
    const port = await closedPort();
    const o = out();
    const t0 = Date.now();
    const r = await runCli(['run', bench('models-local'), '--agent', 'react', '--mode', 'single', '--output', o], {
      env: modelEnv(`http://127.0.0.1:${port}/v1`),
      timeoutMs: 60_000,
    });
    // One GET /models, no retries per sample (docs/agents.md#models): seconds, not minutes of AGENT_ERRORs.
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`the model endpoint http://127.0.0.1:${port}/v1/models is unreachable (ECONNREFUSED)`);
    expect(r.stderr).not.toMatch(/\n\s+at /); // one message, no stack trace
    expect(readdirSync(o)).toEqual([]); // checked before anything is written
  });

  it('a model that answers the check but drops every call ends the trial as AGENT_ERROR naming the cause', async () => {
    const server = await startModelServer(() => ({ drop: true }));
    try {
      const o = out();
      const r = await runCli(
        ['run', bench('models-local'), '--agent', 'react', '--sample', 'greet', '--mode', 'single', '--output', o],
        { env: modelEnv(server.url), timeoutMs: 60_000 },
      );
      const [res] = results(onlyRunDir(o, 'react', 'models-local'));
      expect(res.status, r.stderr).toBe('AGENT_ERROR');
      expect(defined(res.error).message).toMatch(/failed after 4 attempts/);
      expect(defined(res.error).message).toMatch(/ECONNRESET|socket hang up|connection/i);
      expect(server.requests).toHaveLength(4);
    } finally {
      await server.close();
    }
  });

  it('the LLM user: instruction verbatim, roles flipped, ends at ###STOP###, counted apart', async () => {
    const instruction =
      'You are Ada Lovelace. Your order number is 4242 and it was due on Monday. Ask where it is; when you get a tracking answer, thank the assistant and stop.';
    const isUser = (body: WireBody) => String(body.messages[0].content).includes(instruction);
    let userTurns = 0;
    const server = await startModelServer((req) => {
      if (isUser(req.body))
        return { content: ++userTurns === 1 ? 'It is order 4242.' : 'Thanks, that is all. ###STOP###' };
      return {
        content:
          req.body.messages.length <= 2 ? 'Which order number?' : 'Order 4242 is with the courier, tracking TRK-1.',
      };
    });
    try {
      const o = out();
      const r = await runCli(['run', bench('models-chat'), '--agent', 'react', '--mode', 'single', '--output', o], {
        env: modelEnv(server.url),
      });
      const [res] = results(onlyRunDir(o, 'react', 'models-chat'));
      expect(res.status, r.stderr).toBe('PASSED');
      expect(res.stop_reason).toBe('user_done');
      expect(res.metadata.llm_calls).toBe(2);
      expect(res.metadata.user_llm_calls).toBe(2);
      const userReqs = server.requests.filter((q) => isUser(q.body));
      expect(userReqs).toHaveLength(2);
      // The user model sees the sample's input as its own (assistant) words and the agent as `user`.
      expect(userReqs[0].body.messages.slice(1)).toEqual([
        { role: 'assistant', content: 'Where is my parcel?' },
        { role: 'user', content: 'Which order number?' },
      ]);
      expect(userReqs[1].body.messages.slice(1).map((m) => m.role)).toEqual(['assistant', 'user', 'assistant', 'user']);
      // Its reply became the agent's next user message; ###STOP### was never sent on.
      const said = eventsOf(res.events, 'user_message').map((e) => e.content);
      expect(said).toEqual(['Where is my parcel?', 'It is order 4242.']);
      const roles = eventsOf(res.events, 'llm_call').map((e) => e.role);
      expect(roles).toEqual(['agent', 'user', 'agent', 'user']);
      // The transcript has the simulated user's calls as it made them (the roles flipped), apart from the agent's.
      const t = defined(res.transcript);
      expect(t.calls.map((c) => c.source)).toEqual(['agent', 'user', 'agent', 'user']);
      const userCall = t.calls[3];
      expect(userCall.input.map((k) => t.messages[k].role)).toEqual([
        'system',
        'assistant',
        'user',
        'assistant',
        'user',
      ]);
      expect(t.messages[userCall.input[0]].content).toContain(instruction);
      expect(t.messages[defined(userCall.output).message].content).toBe('Thanks, that is all. ###STOP###');
    } finally {
      await server.close();
    }
  });

  it('a module user from the benchmark hooks drives the conversation', async () => {
    const o = out();
    const r = await runCli(
      ['run', bench('models-module'), '--agent', join(FIXTURES, 'agents/echo.ts'), '--mode', 'single', '--output', o],
      { env: modelEnv('http://127.0.0.1:9/v1') },
    );
    const [res] = results(onlyRunDir(o, 'echo', 'models-module'));
    expect(res.status, r.stderr).toBe('PASSED');
    const said = eventsOf(res.events, 'user_message').map((e) => e.content);
    expect(said).toEqual([
      'first',
      'second (turn 2; 2 messages so far; you said "first")',
      expect.stringMatching(/^third \(turn 3; 4 messages so far/),
    ]);
    expect(res.stop_reason).toBe('agent_done');
    expect(res.metadata.user_llm_calls).toBe(0);
  });
});

async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}
