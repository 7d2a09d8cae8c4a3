// Result files with a model-call transcript in the shape the recorder writes (the result file's
// `transcript`: messages once by hash, calls pointing at them), written by hand for the display
// tests: the trial page, the comparison page, the ATIF export and the GenAI spans.
import { createHash } from 'node:crypto';
import type { TrajectoryEvent, TrialResult } from '../../src/types.ts';

export interface Msg {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | unknown[] | null;
  name?: string;
  tool_call_id?: string;
  tool_calls?: Array<{ id: string; name: string; arguments: string }>;
  reasoning?: string;
}

export interface FixtureCall {
  source: 'agent' | 'user' | 'judge' | 'installed';
  api?: 'chat' | 'responses' | 'anthropic' | 'gemini';
  input: Msg[];
  output: Msg | null;
  finish_reason?: string;
  error?: { status?: number; body: string };
  tools?: Array<{ name: string; description?: string; parameters?: unknown }>;
}

const keyOf = (m: Msg) => createHash('sha256').update(JSON.stringify(m)).digest('hex').slice(0, 16);

/** The transcript of `calls`: each distinct message once, each call's input and answer as keys. */
export function transcriptOf(calls: FixtureCall[]): Record<string, unknown> {
  const messages: Record<string, Msg> = {};
  const put = (m: Msg) => {
    const k = keyOf(m);
    messages[k] = m;
    return k;
  };
  return {
    version: 1,
    messages,
    calls: calls.map((c, i) => ({
      id: `c${i + 1}`,
      source: c.source,
      api: c.api ?? 'chat',
      model: c.source === 'judge' ? 'judge-model' : c.source === 'user' ? 'user-model' : 'agent-model',
      started_at: `2025-01-01T00:00:0${i}.000Z`,
      latency_ms: 10 + i,
      input: c.input.map(put),
      ...(c.tools ? { tools: c.tools } : {}),
      params: { temperature: 0 },
      output: c.output
        ? { message: put(c.output), finish_reason: c.finish_reason ?? 'stop', usage: { input: 50, output: 5 } }
        : null,
      ...(c.error ? { error: c.error } : {}),
    })),
  };
}

export const SYSTEM = `You are a careful shell agent.\n${Array.from({ length: 30 }, (_, i) => `rule ${i + 1}: be careful`).join('\n')}`;
export const TOOL_OUTPUT = '3 notes.txt';
const BASH = { name: 'bash', description: 'run a command', parameters: { type: 'object' } };

/**
 * A trial of four model calls: the agent asks for a tool, then answers `answer` with the tool's
 * result in its input; the simulated user replies; the judge grades. `say` goes into the user's prompt.
 */
export function transcriptTrial(base: TrialResult, answer: string, say = 'How many lines in notes.txt?'): TrialResult {
  const sys: Msg = { role: 'system', content: SYSTEM };
  const user: Msg = { role: 'user', content: say };
  const asks: Msg = {
    role: 'assistant',
    content: '',
    reasoning: 'I should count the lines first.',
    tool_calls: [{ id: 'call_1', name: 'bash', arguments: '{"command":"wc -l notes.txt"}' }],
  };
  const result: Msg = { role: 'tool', content: TOOL_OUTPUT, tool_call_id: 'call_1', name: 'bash' };
  const reply: Msg = { role: 'assistant', content: answer };
  const calls: FixtureCall[] = [
    { source: 'agent', input: [sys, user], output: asks, finish_reason: 'tool_calls', tools: [BASH] },
    { source: 'agent', input: [sys, user, asks, result], output: reply, tools: [BASH] },
    {
      source: 'user',
      input: [
        { role: 'system', content: 'You play a customer.' },
        { role: 'user', content: answer },
      ],
      output: { role: 'assistant', content: 'thanks, bye' },
    },
    {
      source: 'judge',
      input: [{ role: 'user', content: `Grade this answer: ${answer}` }],
      output: { role: 'assistant', content: '{"score": 5, "reasoning": "right count"}' },
    },
  ];
  const tokens = { input: 50, output: 5 };
  const llm = (call: string, role: 'agent' | 'user' | 'judge', model: string) =>
    ({ type: 'llm_call', model, latency_ms: 10, tokens, role, call }) as const;
  const events = [
    { type: 'user_message', content: say },
    llm('c1', 'agent', 'agent-model'),
    { type: 'tool_call', tool: 'bash', args: { command: 'wc -l notes.txt' }, id: 'call_1' },
    { type: 'tool_result', tool: 'bash', exit_code: 0, output: TOOL_OUTPUT, id: 'call_1' },
    llm('c2', 'agent', 'agent-model'),
    { type: 'agent_message', content: answer },
    llm('c3', 'user', 'user-model'),
    { type: 'user_message', content: 'thanks, bye' },
    llm('c4', 'judge', 'judge-model'),
  ].map((e, i) => ({ ...e, step: i + 1, ts: i / 10 })) as TrajectoryEvent[];
  return {
    ...base,
    prompt: say,
    response: answer,
    replies: [answer],
    events,
    transcript: transcriptOf(calls),
  } as TrialResult;
}
