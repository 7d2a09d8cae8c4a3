// The `http` agent (both protocols) against a scripted agent server on loopback, and the `replay`
// agent from predictions files, through the real CLI.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startAgentServer } from '../support/agent-server.ts';
import { FIXTURES, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { filesContaining, SECRET } from './models-helpers.ts';
import { defined } from '../support/defined.ts';

const local = join(FIXTURES, 'benchmarks/models-local');
const outputs: string[] = [];
const out = () => {
  const d = tempDir('benchrig-agents-');
  outputs.push(d);
  return d;
};
const byId = (dir: string) => Object.fromEntries(results(dir).map((r) => [r.sample_id, r]));
const answer = (q: string) => (/France/.test(q) ? 'Paris.' : /Italy/.test(q) ? 'Rome.' : 'hello!');

afterAll(() => {
  for (const d of outputs) expect(filesContaining(d, SECRET), d).toEqual([]);
});

describe('http agent', () => {
  it('protocol=openai posts the whole conversation to <base>/chat/completions with the key as Bearer', async () => {
    const server = await startAgentServer((req) => ({ content: answer(defined(req.body.messages.at(-1)).content) }));
    try {
      const o = out();
      const r = await runCli(
        [
          'run',
          local,
          '--agent',
          'http',
          '--agent-opt',
          `url=${server.url}/v1`,
          '--agent-opt',
          'model=remote-1',
          '--agent-opt',
          'api_key=${AGENT_KEY}',
          '--mode',
          'single',
          '--output',
          o,
        ],
        { env: { AGENT_KEY: SECRET } },
      );
      const dir = onlyRunDir(o, 'http', 'models-local');
      const res = byId(dir);
      expect(res.capitals.status, r.stderr).toBe('PASSED');
      expect(res.greet.status).toBe('PASSED');
      expect(server.requests.every((q) => q.path === '/v1/chat/completions')).toBe(true);
      expect(server.requests.every((q) => q.headers.authorization === `Bearer ${SECRET}`)).toBe(true);
      const second = defined(server.requests.find((q) => q.body.messages.length > 1));
      expect(second.body).toEqual({
        model: 'remote-1',
        messages: [
          { role: 'user', content: 'What is the capital of France?' },
          { role: 'assistant', content: 'Paris.' },
          { role: 'user', content: 'Thanks. And of Italy?' },
        ],
      });
      expect(JSON.stringify(readJson(join(dir, 'run.json')))).not.toContain('${AGENT_KEY}');
    } finally {
      await server.close();
    }
  });

  it('protocol=benchrig: session, sample and messages in; reply, state and remote events recorded; a 503 retried', async () => {
    const server = await startAgentServer([
      { status: 503, retryAfter: 0 },
      {
        content: 'hello from afar',
        reply: {
          done: true,
          state: { greeted: true },
          events: [
            { type: 'tool_call', tool: 'lookup', args: { q: 'greeting' }, id: 't1' },
            { type: 'tool_result', tool: 'lookup', output: 'hello', id: 't1' },
            { type: 'llm_call', model: 'x', latency_ms: 1, tokens: { input: 1, output: 1 } },
          ],
        },
      },
    ]);
    try {
      const o = out();
      const r = await runCli([
        'run',
        local,
        '--agent',
        'http',
        '--agent-opt',
        `url=${server.url}/agent`,
        '--agent-opt',
        'protocol=benchrig',
        '--sample',
        'greet',
        '--mode',
        'single',
        '--output',
        o,
      ]);
      const [res] = results(onlyRunDir(o, 'http', 'models-local'));
      expect(res.status, r.stderr).toBe('PASSED');
      expect(server.requests).toHaveLength(2);
      expect(server.requests[1].body).toEqual({
        session_id: res.session_id,
        sample: { id: 'greet', input: 'Say hello', metadata: {} },
        messages: [{ role: 'user', content: 'Say hello' }],
      });
      expect(res.final_state).toEqual({ greeted: true });
      expect(res.stop_reason).toBe('agent_done');
      const tools = res.events
        .filter((e) => e.type === 'tool_call' || e.type === 'tool_result')
        .map(({ step: _s, ts: _t, ...e }) => e);
      expect(tools).toEqual([
        { type: 'tool_call', tool: 'lookup', args: { q: 'greeting' }, id: 't1' },
        { type: 'tool_result', tool: 'lookup', output: 'hello', id: 't1' },
      ]);
      expect(res.metadata.llm_calls).toBe(0); // a remote agent's own model calls are not ours
    } finally {
      await server.close();
    }
  });

  it('a server slower than timeout_s is AGENT_ERROR naming the URL, after the retries', async () => {
    const server = await startAgentServer([
      { delayMs: 5000, content: 'late' },
      { delayMs: 5000, content: 'late' },
    ]);
    try {
      const o = out();
      const t0 = Date.now();
      await runCli([
        'run',
        local,
        '--agent',
        'http',
        '--agent-opt',
        `url=${server.url}/agent?token=abc`,
        '--agent-opt',
        'protocol=benchrig',
        '--agent-opt',
        'timeout_s=0.5',
        '--agent-opt',
        'max_retries=1',
        '--sample',
        'greet',
        '--mode',
        'single',
        '--output',
        o,
      ]);
      expect(Date.now() - t0).toBeLessThan(30_000);
      const [res] = results(onlyRunDir(o, 'http', 'models-local'));
      expect(res.status).toBe('AGENT_ERROR');
      expect(defined(res.error).message).toBe(
        `http agent: POST ${server.url}/agent failed after 2 attempts: timed out after 0.5s`,
      );
      expect(server.requests).toHaveLength(2);
    } finally {
      await server.close();
    }
  });
});

describe('replay agent', () => {
  it('replies from a predictions JSONL, one response per turn, with events and final state', async () => {
    const o = out();
    const file = join(o, 'predictions.jsonl');
    writeFileSync(
      file,
      [
        {
          sample_id: 'capitals',
          responses: ['Paris', 'Rome'],
          events: [{ type: 'tool_call', tool: 'atlas', args: { country: 'France' } }],
          final_state: { looked_up: 2 },
        },
        { sample_id: 'greet', response: 'goodbye' },
      ]
        .map((x) => JSON.stringify(x))
        .join('\n') + '\n',
    );
    const r = await runCli([
      'run',
      local,
      '--agent',
      'replay',
      '--agent-opt',
      `predictions=${file}`,
      '--mode',
      'single',
      '--output',
      o,
    ]);
    const res = byId(onlyRunDir(o, 'replay', 'models-local'));
    expect(res.capitals.status, r.stderr).toBe('PASSED');
    expect(res.capitals.replies).toEqual(['Paris', 'Rome']);
    expect(res.capitals.final_state).toEqual({ looked_up: 2 });
    expect(res.capitals.metadata.tools_used).toEqual({ atlas: 1 });
    expect(res.greet.status).toBe('FAILED'); // "goodbye" does not say hello
  });

  it('turns an OpenAI message list into tool_call/tool_result events; a sample without one is AGENT_ERROR alone', async () => {
    const o = out();
    const file = join(o, 'transcripts.jsonl');
    const messages = [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'Say hello' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"echo hello"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'exit_code: 0\nstdout:\nhello\n' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c2', type: 'function', function: { name: 'submit', arguments: '{"answer":"hello"}' } }],
      },
      { role: 'tool', tool_call_id: 'c2', content: 'submitted' },
    ];
    writeFileSync(file, JSON.stringify({ sample_id: 'greet', messages }) + '\n');
    await runCli([
      'run',
      local,
      '--agent',
      'replay',
      '--agent-opt',
      `predictions=${file}`,
      '--mode',
      'single',
      '--output',
      o,
    ]);
    const res = byId(onlyRunDir(o, 'replay', 'models-local'));
    expect(res.greet.status).toBe('PASSED');
    expect(res.greet.response).toBe('hello');
    expect(res.greet.stop_reason).toBe('agent_done');
    const tools = res.greet.events.filter((e) => e.type.startsWith('tool_')).map(({ step: _s, ts: _t, ...e }) => e);
    expect(tools).toEqual([
      { type: 'tool_call', tool: 'bash', args: { command: 'echo hello' }, id: 'c1' },
      { type: 'tool_result', tool: 'bash', output: 'exit_code: 0\nstdout:\nhello\n', id: 'c1', exit_code: 0 },
      { type: 'tool_call', tool: 'submit', args: { answer: 'hello' }, id: 'c2' },
      { type: 'tool_result', tool: 'submit', output: 'submitted', id: 'c2' },
    ]);
    expect(res.capitals.status).toBe('AGENT_ERROR');
    expect(defined(res.capitals.error).message).toBe(`no prediction for sample capitals in ${file}`);
  });
});
