// The ATIF mapping of a result file (docs/export.md#atif): each event type to steps, malformed tool
// arguments, totals from the result file, trial k > 1 naming, benchrig's own data under extra only.
import { describe, expect, it } from 'vitest';
import { exportName, toAtif } from '../../../src/report/atif.ts';
import type { TrajectoryEvent, TrialResult } from '../../../src/types.ts';
import { atifProblems } from '../../support/atif-check.ts';
import { SYSTEM, TOOL_OUTPUT, transcriptTrial } from '../../support/transcript-fixture.ts';

type NewEv = TrajectoryEvent extends infer E ? (E extends TrajectoryEvent ? Omit<E, 'step' | 'ts'> : never) : never;

function result(events: NewEv[], over: Partial<TrialResult> = {}): TrialResult {
  const evs = events.map((e, i) => ({ ...e, step: i + 1, ts: i / 10 })) as TrajectoryEvent[];
  const calls = evs.filter((e) => e.type === 'llm_call');
  return {
    schema_version: 1,
    task_id: 'count-lines',
    sample_id: 'count-lines',
    trial: 1,
    session_id: 'sess-1',
    prompt: 'How many lines?',
    response: '42',
    status: 'PASSED',
    stop_reason: 'agent_done',
    score: 1,
    checks: [{ name: 'ok', type: 'contains', score: 1, passed: true, reason: 'yes' }],
    events: evs,
    final_state: {},
    artifacts: {},
    metadata: {
      llm_calls: calls.length,
      user_llm_calls: 0,
      tokens: {
        input: calls.reduce((n, e) => n + e.tokens.input, 0),
        output: calls.reduce((n, e) => n + e.tokens.output, 0),
      },
      cost_usd: 0.0005,
      tools_used: {},
      execution_time_s: 1,
      timings_s: {},
      input_hash: 'h',
    },
    error: null,
    trace_id: null,
    started_at: '2025-01-01T00:00:00.000Z',
    finished_at: '2025-01-01T00:00:01.000Z',
    ...over,
  } as TrialResult;
}

const AGENT = { name: 'react', version: 'benchrig-0.1.0', model_name: 'gpt-4o-mini' };
const RUN = { run_id: 'r1', benchmark: 'shell-tasks' };
const call = (input: number, output: number, extra: Partial<Extract<NewEv, { type: 'llm_call' }>> = {}): NewEv => ({
  type: 'llm_call',
  model: 'gpt-4o-mini',
  latency_ms: 5,
  tokens: { input, output },
  cost_usd: 0.0001,
  role: 'agent',
  ...extra,
});

describe('a result file as ATIF', () => {
  const react = result([
    { type: 'user_message', content: 'How many lines?' },
    call(100, 10, { tokens: { input: 100, output: 10, cached: 40 } }),
    { type: 'tool_call', tool: 'bash', args: { command: 'wc -l f' }, id: 'c1' },
    { type: 'tool_result', tool: 'bash', output: '42 f', exit_code: 0, id: 'c1' },
    call(200, 20),
    { type: 'tool_call', tool: 'bash', args: { _raw: '{"command": "ls' }, id: 'c2' },
    { type: 'tool_result', tool: 'bash', output: 'error: bad arguments', id: 'c2', error: 'bad arguments' },
    { type: 'log', level: 'info', message: 'note' },
    call(300, 30),
    { type: 'tool_call', tool: 'submit', args: { answer: '42' }, id: 'c3' },
    { type: 'tool_result', tool: 'submit', output: 'submitted', id: 'c3' },
    { type: 'agent_message', content: '42', done: true },
    { type: 'check', name: 'ok', passed: true, score: 1, reason: 'yes' },
  ]);
  const t = toAtif(react, AGENT, RUN);

  it('holds to the format: required fields, sequential step ids, no unknown keys', () => {
    expect(atifProblems(t)).toEqual([]);
    expect(t.steps.map((s) => s.step_id)).toEqual([1, 2, 3, 4]);
  });

  it('a user message is a user step; each model call an agent step with its metrics; the reply closes the last', () => {
    expect(t.steps.map((s) => [s.source, s.message, s.llm_call_count])).toEqual([
      ['user', 'How many lines?', undefined],
      ['agent', '', 1],
      ['agent', '', 1],
      ['agent', '42', 1],
    ]);
    expect(t.steps[1].metrics).toMatchObject({
      prompt_tokens: 100,
      completion_tokens: 10,
      cached_tokens: 40,
      cost_usd: 0.0001,
    });
    expect(t.steps[1].model_name).toBe('gpt-4o-mini');
  });

  it('tool results are the observation of their call, linked by source_call_id', () => {
    expect(t.steps[1].tool_calls).toEqual([
      { tool_call_id: 'c1', function_name: 'bash', arguments: { command: 'wc -l f' } },
    ]);
    expect(t.steps[1].observation?.results).toEqual([
      { source_call_id: 'c1', content: '42 f', extra: { tool: 'bash', exit_code: 0 } },
    ]);
  });

  it('a malformed call has empty arguments and keeps its raw text under extra', () => {
    expect(t.steps[2].tool_calls?.[0]).toEqual({
      tool_call_id: 'c2',
      function_name: 'bash',
      arguments: {},
      extra: { raw_arguments: '{"command": "ls' },
    });
  });

  it("final metrics are the result file's totals; benchrig's own data and events only under extra", () => {
    expect(t.final_metrics).toMatchObject({
      total_prompt_tokens: 600,
      total_completion_tokens: 60,
      total_cached_tokens: 40,
      total_cost_usd: 0.0005,
      total_steps: 4,
    });
    expect(t.extra?.benchrig).toMatchObject({ status: 'PASSED', task_id: 'count-lines', checks: react.checks });
    expect(t.steps[2].extra?.events).toEqual([expect.objectContaining({ type: 'log', message: 'note' })]);
    expect(t.steps[3].extra?.events).toEqual([expect.objectContaining({ type: 'check', name: 'ok' })]);
  });

  it('a null cost is left out of the totals and said under extra', () => {
    const u = toAtif(
      result([call(5, 1, { cost_usd: null })], {
        metadata: { ...react.metadata, tokens: { input: 5, output: 1 }, cost_usd: null, unpriced_models: ['mystery'] },
      }),
      AGENT,
      RUN,
    );
    expect(atifProblems(u)).toEqual([]);
    expect(u.final_metrics?.total_cost_usd).toBeUndefined();
    expect(u.final_metrics?.extra).toMatchObject({ cost_usd: null, unpriced_models: ['mystery'] });
    expect(u.steps[0].metrics?.cost_usd).toBeUndefined();
  });

  it("the simulated user's and the judge's calls are not agent steps; their tokens count in the totals", () => {
    const m = toAtif(
      result([
        { type: 'user_message', content: 'hi' },
        call(10, 1),
        { type: 'agent_message', content: 'which order?' },
        call(7, 2, { role: 'user' }),
        { type: 'user_message', content: 'order 4242' },
        call(20, 3),
        { type: 'agent_message', content: 'shipped', done: true },
        call(30, 4, { role: 'judge' }),
      ]),
      AGENT,
      RUN,
    );
    expect(atifProblems(m)).toEqual([]);
    expect(m.steps.map((s) => s.source)).toEqual(['user', 'agent', 'user', 'agent']);
    expect(m.final_metrics?.total_prompt_tokens).toBe(67);
    expect(m.final_metrics?.extra?.by_role).toEqual({
      agent: { calls: 2, prompt_tokens: 30, completion_tokens: 4 },
      user: { calls: 1, prompt_tokens: 7, completion_tokens: 2 },
      judge: { calls: 1, prompt_tokens: 30, completion_tokens: 4 },
    });
  });

  it("a module agent's tool use without a model call is an agent step without metrics; calls without ids get one", () => {
    const m = toAtif(
      result([
        { type: 'user_message', content: 'go' },
        { type: 'tool_call', tool: 'bash', args: { cmd: 'ls' } },
        { type: 'tool_result', tool: 'bash', output: 'a', exit_code: 0 },
        { type: 'agent_message', content: 'a' },
      ]),
      AGENT,
      RUN,
    );
    expect(atifProblems(m)).toEqual([]);
    expect(m.steps[1]).toMatchObject({ source: 'agent', llm_call_count: 0, message: 'a' });
    expect(m.steps[1].metrics).toBeUndefined();
    const id = m.steps[1].tool_calls?.[0].tool_call_id;
    expect(m.steps[1].observation?.results[0].source_call_id).toBe(id);
  });

  it('a trial without events still has a step: the prompt', () => {
    const m = toAtif(result([]), AGENT, RUN);
    expect(atifProblems(m)).toEqual([]);
    expect(m.steps).toEqual([expect.objectContaining({ source: 'user', message: 'How many lines?' })]);
  });

  it('text is kept as written: markup is not escaped or rendered', () => {
    const m = toAtif(result([{ type: 'agent_message', content: '<script>alert(1)</script> & co' }]), AGENT, RUN);
    expect(m.steps[0].message).toBe('<script>alert(1)</script> & co');
    expect(JSON.stringify(m)).not.toContain('&lt;');
  });

  it('trial k > 1 is named <task-id>__<k>, trial 1 the task id', () => {
    expect(exportName({ task_id: 'count-lines', trial: 1 })).toBe('count-lines');
    expect(exportName({ task_id: 'count-lines-t1', trial: 1 })).toBe('count-lines');
    expect(exportName({ task_id: 'count-lines-t3', trial: 3 })).toBe('count-lines__3');
  });

  it("with a transcript: the system prompt opens it, each agent step's message is the model's answer, with its reasoning", () => {
    const m = toAtif(transcriptTrial(result([]), 'It has 3 lines.'), AGENT, RUN);
    expect(atifProblems(m)).toEqual([]);
    expect(m.steps.map((s) => [s.source, s.message])).toEqual([
      ['system', SYSTEM],
      ['user', 'How many lines in notes.txt?'],
      ['agent', ''], // the first answer was a tool call
      ['agent', 'It has 3 lines.'],
      ['user', 'thanks, bye'],
    ]);
    expect(m.steps[2]).toMatchObject({
      reasoning_content: 'I should count the lines first.',
      tool_calls: [{ tool_call_id: 'call_1', function_name: 'bash', arguments: { command: 'wc -l notes.txt' } }],
      observation: { results: [{ source_call_id: 'call_1', content: TOOL_OUTPUT }] },
      extra: { transcript: { call: 'c1', finish_reason: 'tool_calls' } },
    });
    // the reply was the model's answer: the step that answered, not a step of its own
    expect(m.steps[3]).toMatchObject({
      llm_call_count: 1,
      extra: { transcript: { call: 'c2', finish_reason: 'stop' } },
    });
    // a reply that is not the model's text (given through a tool): beside the answer, not a step of its own
    const viaTool = transcriptTrial(result([]), 'It has 3 lines.');
    const reply = viaTool.events.find((e) => e.type === 'agent_message');
    Object.assign(reply ?? {}, { content: '3', done: true });
    const v = toAtif(viaTool, AGENT, RUN);
    expect(v.steps).toHaveLength(5);
    expect(v.steps[3]).toMatchObject({ message: 'It has 3 lines.', extra: { reply: { content: '3', done: true } } });
    // the simulated user's and the judge's calls stay benchrig's own events
    expect(m.steps[3].extra?.events).toEqual([expect.objectContaining({ type: 'llm_call', role: 'user' })]);
    expect(m.steps[4].extra?.events).toEqual([expect.objectContaining({ type: 'llm_call', role: 'judge' })]);
  });
});
