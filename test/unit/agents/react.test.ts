// The react agent: the real LLM client against the scripted model server, a fake in-memory sandbox
// (the real-Docker run is in the e2e tests).
import { afterEach, describe, expect, it } from 'vitest';
import createReactAgent, { defaultSystemPrompt, SANDBOX_TOOLS, SUBMIT_TOOL } from '../../../src/agents/react.ts';
import type { AgentContext } from '../../../src/agents/types.ts';
import { LlmBudgetExceeded } from '../../../src/errors.ts';
import { createLlmClient } from '../../../src/llm/client.ts';
import type { ExecResult, Sandbox } from '../../../src/sandbox/types.ts';
import type { NewEvent } from '../../../src/types.ts';
import { startModelServer, type ModelServer, type Script, type ScriptedToolCall } from '../../support/model-server.ts';
import { defined } from '../../support/defined.ts';
import type { WireBody } from '../../support/http.ts';

/** A sandbox in memory: `echo X` prints X, `big N` prints N characters, `fail` exits 2. */
class FakeSandbox implements Sandbox {
  readonly id = 'fake';
  readonly image = 'fake:latest';
  readonly workdir = '/work';
  commands: string[] = [];
  files = new Map<string, string>();
  async restart() {}
  async health() {
    return { daemon: true, state: 'running' as const };
  }
  async transfer() {}
  async exec(cmd: string | string[]): Promise<ExecResult> {
    const c = typeof cmd === 'string' ? cmd : cmd.join(' ');
    this.commands.push(c);
    const ok = (stdout: string, stderr = '', exitCode = 0) => ({
      exitCode,
      stdout,
      stderr,
      timedOut: false,
      truncated: false,
    });
    if (c.startsWith('echo ')) return ok(`${c.slice(5)}\n`);
    if (c.startsWith('big ')) return ok('H' + 'x'.repeat(Number(c.slice(4)) - 2) + 'T');
    if (c === 'fail') return ok('', 'boom\n', 2);
    return ok('', `sh: ${c}: not found\n`, 127);
  }
  async readFile(path: string) {
    const content = this.files.get(path);
    if (content === undefined) throw new Error(`no such file: ${path}`);
    return content;
  }
  async writeFile(path: string, content: string | Uint8Array) {
    this.files.set(path, String(content));
  }
  async copyIn() {}
  async copyOut() {
    return { files: 0, dirs: 0, bytes: 0, skipped: [] };
  }
}

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(
  script: Script,
  opts: { sandbox?: FakeSandbox | null; options?: Record<string, unknown>; budget?: number } = {},
) {
  server = await startModelServer(script);
  const sandbox = opts.sandbox === null ? undefined : (opts.sandbox ?? new FakeSandbox());
  const events: NewEvent[] = [];
  const config = { base_url: server.url, api_key: '', model: 'm', max_retries: 0, timeout_s: 5 };
  const ctx: AgentContext = {
    sessionId: 's1',
    sample: { id: 'x', input: 'task', metadata: {} },
    sandbox,
    llm: createLlmClient({ config, role: 'agent', budget: opts.budget ?? 50 }),
    options: opts.options ?? {},
    signal: new AbortController().signal,
    record: (e) => events.push(e),
  };
  return { agent: createReactAgent(ctx), sandbox, events, requests: server.requests };
}

const call = (name: string, args: ScriptedToolCall['arguments'], id?: string) => ({ name, arguments: args, id });
const toolNames = (body: WireBody) =>
  ((body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);

/** The sandbox's prompt, as react sends it when `system_prompt` is not set. */
const SANDBOX_PROMPT = defaultSystemPrompt([...SANDBOX_TOOLS, SUBMIT_TOOL]);
/** The tool names a prompt mentions (in backquotes). */
const mentioned = (prompt: unknown) => [...String(prompt).matchAll(/`(\w+)`/g)].map((m) => m[1]).sort();

describe('react agent', () => {
  it('a reply without tool calls ends the turn with done false', async () => {
    const { agent, requests } = await setup([{ content: 'Which file?' }]);
    expect(await agent.respond('fix it')).toEqual({ content: 'Which file?', done: false });
    expect(requests[0].body.messages).toEqual([
      { role: 'system', content: SANDBOX_PROMPT },
      { role: 'user', content: 'fix it' },
    ]);
    expect(toolNames(requests[0].body)).toEqual(['bash', 'read_file', 'write_file', 'submit']);
  });

  it('runs every bash call in order, answers each with a tool message, and submit ends the turn', async () => {
    const { agent, sandbox, events, requests } = await setup([
      { tool_calls: [call('bash', { command: 'echo one' }, 'a'), call('bash', { command: 'fail' }, 'b')] },
      { tool_calls: [call('submit', { answer: '42' }, 'c')] },
    ]);
    expect(await agent.respond('go')).toEqual({ content: '42', done: true });
    expect(defined(sandbox).commands).toEqual(['echo one', 'fail']);
    const second = requests[1].body.messages;
    expect(second.slice(2)).toEqual([
      { role: 'assistant', content: null, tool_calls: expect.any(Array) },
      { role: 'tool', tool_call_id: 'a', content: 'exit_code: 0\nstdout:\none\n' },
      { role: 'tool', tool_call_id: 'b', content: 'exit_code: 2\nstdout:\nstderr:\nboom\n' },
    ]);
    expect(events).toEqual([
      { type: 'tool_call', tool: 'bash', args: { command: 'echo one' }, id: 'a' },
      { type: 'tool_result', tool: 'bash', exit_code: 0, output: 'exit_code: 0\nstdout:\none\n', id: 'a' },
      { type: 'tool_call', tool: 'bash', args: { command: 'fail' }, id: 'b' },
      { type: 'tool_result', tool: 'bash', exit_code: 2, output: 'exit_code: 2\nstdout:\nstderr:\nboom\n', id: 'b' },
      { type: 'tool_call', tool: 'submit', args: { answer: '42' }, id: 'c' },
      { type: 'tool_result', tool: 'submit', output: 'submitted', id: 'c' },
    ]);
  });

  it('runs calls before a submit, not after it, and keeps the message list valid for the next turn', async () => {
    const { agent, sandbox, requests } = await setup([
      {
        tool_calls: [
          call('bash', { command: 'echo before' }, 'a'),
          call('submit', { answer: 'done' }, 'b'),
          call('bash', { command: 'echo after' }, 'c'),
        ],
      },
      { content: 'ok' },
    ]);
    expect(await agent.respond('go')).toEqual({ content: 'done', done: true });
    expect(defined(sandbox).commands).toEqual(['echo before']);
    await agent.respond('anything else?');
    const ids = requests[1].body.messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id);
    expect(ids).toEqual(['a', 'b', 'c']);
    expect(requests[1].body.messages.at(-1)).toEqual({ role: 'user', content: 'anything else?' });
  });

  it('answers malformed arguments, missing arguments and unknown tools with errors and continues', async () => {
    const { agent, sandbox, events, requests } = await setup([
      {
        tool_calls: [
          call('bash', '{"command": "echo', 'a'),
          call('bash', {}, 'b'),
          call('launch_rockets', { n: 1 }, 'c'),
          call('bash', { command: 'echo fine' }, 'd'),
        ],
      },
      { content: 'recovered' },
    ]);
    expect(await agent.respond('go')).toEqual({ content: 'recovered', done: false });
    expect(defined(sandbox).commands).toEqual(['echo fine']);
    const tools = requests[1].body.messages.filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.tool_call_id)).toEqual(['a', 'b', 'c', 'd']);
    expect(tools[0].content).toMatch(/^error: invalid JSON arguments/);
    expect(tools[1].content).toMatch(/^error: missing .*command/);
    expect(tools[2].content).toMatch(/^error: unknown tool 'launch_rockets'/);
    expect(tools[3].content).toContain('fine');
    expect(events.filter((e) => e.type === 'tool_result' && e.error)).toHaveLength(3);
  });

  it('reads and writes files, and a failing read goes back to the model', async () => {
    const sandbox = new FakeSandbox();
    sandbox.files.set('/work/in.txt', 'input data');
    const { agent, requests } = await setup(
      [
        {
          tool_calls: [
            call('read_file', { path: '/work/in.txt' }, 'a'),
            call('write_file', { path: '/work/out.txt', content: 'résumé' }, 'b'),
            call('read_file', { path: '/nope' }, 'c'),
          ],
        },
        { tool_calls: [call('submit', { answer: 'ok' })] },
      ],
      { sandbox },
    );
    await agent.respond('go');
    expect(sandbox.files.get('/work/out.txt')).toBe('résumé');
    const tools = requests[1].body.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(tools).toEqual(['input data', 'wrote 8 bytes to /work/out.txt', 'error: no such file: /nope']);
  });

  it('truncates long tool output for the model, keeping head and tail', async () => {
    const { agent, requests } = await setup(
      [{ tool_calls: [call('bash', { command: 'big 5000' }, 'a')] }, { content: 'saw it' }],
      { options: { max_tool_output_chars: '200' } },
    );
    await agent.respond('go');
    const out: string = defined(requests[1].body.messages.at(-1)).content;
    const full = 'exit_code: 0\nstdout:\n'.length + 5000;
    expect(out).toContain(`[... ${full - 200} chars truncated ...]`);
    expect(out.startsWith('exit_code: 0')).toBe(true);
    expect(out.endsWith('xT')).toBe(true);
    expect(out.length).toBeLessThan(300);
  });

  it('offers only submit without a sandbox and uses the configured system prompt', async () => {
    const { agent, requests } = await setup(
      [{ tool_calls: [call('bash', { command: 'ls' }, 'a'), call('submit', { answer: 'blue' }, 'b')] }],
      {
        sandbox: null,
        options: { system_prompt: 'You are terse.' },
      },
    );
    expect(await agent.respond('sky colour?')).toEqual({ content: 'blue', done: true });
    expect(toolNames(requests[0].body)).toEqual(['submit']);
    expect(requests[0].body.messages[0]).toEqual({ role: 'system', content: 'You are terse.' });
  });

  it('its default system prompt describes exactly the tools it offers, with a sandbox and without', async () => {
    for (const sandbox of [undefined, null]) {
      const { agent, requests } = await setup([{ content: 'ok' }], { sandbox });
      await agent.respond('task');
      const prompt = requests[0].body.messages[0];
      expect(prompt.role).toBe('system');
      expect(mentioned(prompt.content), String(prompt.content)).toEqual(toolNames(requests[0].body).sort());
    }
    expect(mentioned(SANDBOX_PROMPT)).toEqual(['bash', 'read_file', 'submit', 'write_file']);
    expect(mentioned(defaultSystemPrompt([SUBMIT_TOOL]))).toEqual(['submit']);
  });

  it('keeps one message list across turns', async () => {
    const { agent, requests } = await setup([{ content: 'first reply' }, { content: 'second reply' }]);
    await agent.respond('one');
    await agent.respond('two');
    expect(requests[1].body.messages.map((m) => [m.role, m.content])).toEqual([
      ['system', SANDBOX_PROMPT],
      ['user', 'one'],
      ['assistant', 'first reply'],
      ['user', 'two'],
    ]);
  });

  it('lets LlmBudgetExceeded propagate when the budget runs out mid-turn', async () => {
    const { agent, requests } = await setup(() => ({ tool_calls: [call('bash', { command: 'echo again' })] }), {
      budget: 3,
    });
    await expect(agent.respond('loop')).rejects.toBeInstanceOf(LlmBudgetExceeded);
    expect(requests).toHaveLength(3);
  });

  it('stops at the next step once the trial signal aborts', async () => {
    const ac = new AbortController();
    const sandbox = new FakeSandbox();
    const exec = sandbox.exec.bind(sandbox);
    sandbox.exec = async (cmd) => {
      ac.abort(new Error('trial timeout'));
      return exec(cmd);
    };
    server = await startModelServer(() => ({
      tool_calls: [call('bash', { command: 'echo x' }), call('bash', { command: 'echo y' })],
    }));
    const llm = createLlmClient({
      config: { base_url: server.url, api_key: '', model: 'm', max_retries: 0, timeout_s: 5 },
      role: 'agent',
      budget: 50,
      signal: ac.signal,
    });
    const agent = createReactAgent({
      sessionId: 's',
      sample: { id: 'x', input: '', metadata: {} },
      sandbox,
      llm,
      options: {},
      signal: ac.signal,
      record: () => {},
    });
    await expect(agent.respond('go')).rejects.toThrow('trial timeout');
    expect(sandbox.commands).toEqual(['echo x']);
    expect(server.requests).toHaveLength(1);
  });

  it('stops a turn after max_steps model calls', async () => {
    const { agent, requests, events } = await setup(
      () => ({ content: 'thinking', tool_calls: [call('bash', { command: 'echo x' })] }),
      {
        options: { max_steps: 2 },
      },
    );
    expect(await agent.respond('loop')).toEqual({ content: 'thinking', done: false });
    expect(requests).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: 'log', level: 'warn' });
  });
});
