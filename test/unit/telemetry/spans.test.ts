// The trial's span tree built from trajectory events, exported for real to the loopback collector
// (OTLP and Langfuse) from this process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRunTrace, startTrialSpans } from '../../../src/telemetry/spans.ts';
import type { RunContext, TrialInput } from '../../../src/trial/types.ts';
import type { TrajectoryEvent, TrialResult } from '../../../src/types.ts';
import { startCollector, type CollectedSpan, type Collector } from '../../support/collector.ts';
import { defined } from '../../support/defined.ts';
import { SYSTEM, TOOL_OUTPUT, transcriptTrial } from '../../support/transcript-fixture.ts';

const KEYS = { publicKey: 'pk-unit', secretKey: 'sk-unit' };
let collector: Collector;
const saved = { ...process.env };

beforeAll(async () => {
  collector = await startCollector({ langfuse: KEYS });
  // The exporters read their configuration from the environment, as in a worker.
  Object.assign(process.env, {
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    LANGFUSE_PUBLIC_KEY: KEYS.publicKey,
    LANGFUSE_SECRET_KEY: KEYS.secretKey,
    LANGFUSE_BASE_URL: collector.url,
  });
});
afterAll(async () => {
  for (const k of ['OTEL_EXPORTER_OTLP_ENDPOINT', 'LANGFUSE_PUBLIC_KEY', 'LANGFUSE_SECRET_KEY', 'LANGFUSE_BASE_URL'])
    if (!(k in saved)) delete process.env[k];
  await collector?.close();
});

const run = { runId: 'run-1', runDir: '/nonexistent' } as RunContext;
const input = (id: string): TrialInput => ({
  taskId: id,
  trial: 1,
  sample: { id, input: 'x' } as TrialInput['sample'],
  inputHash: 'h',
});
let step = 0;
const ev = (e: Record<string, unknown>) => ({ step: ++step, ts: 0, ...e }) as TrajectoryEvent;
const result = (id: string, r: Partial<TrialResult>) =>
  ({
    task_id: id,
    sample_id: id,
    status: 'PASSED',
    score: 1,
    stop_reason: 'agent_done',
    error: null,
    ...r,
  }) as TrialResult;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the trial span tree', () => {
  let spans: CollectedSpan[];
  let traceIds: (string | null)[] = [];

  beforeAll(async () => {
    const trace = defined(await startRunTrace({ exporters: ['otlp', 'langfuse'] }, { 'benchrig.run.id': 'run-1' }));
    const traced = trace.carry(run);

    // 1: two turns, the simulated user's model in between, tools answered out of order, a judge.
    const a = await startTrialSpans(traced, input('a'), 's-a');
    a.open('sandbox.start').end();
    a.event(ev({ type: 'user_message', content: 'hi' }));
    await sleep(30);
    a.event(ev({ type: 'llm_call', model: 'm-agent', latency_ms: 20, tokens: { input: 5, output: 3 }, role: 'agent' }));
    a.event(ev({ type: 'tool_call', tool: 'bash', args: { command: 'ls' }, id: 'c1' }));
    a.event(ev({ type: 'tool_call', tool: 'bash', args: { command: 'pwd' }, id: 'c2' }));
    a.event(ev({ type: 'tool_result', tool: 'bash', output: '/w', exit_code: 0, id: 'c2' }));
    a.event(ev({ type: 'tool_result', tool: 'bash', output: '', exit_code: 2, id: 'c1', error: 'ls: nope' }));
    a.event(ev({ type: 'agent_message', content: 'done?' }));
    a.event(ev({ type: 'llm_call', model: 'm-user', latency_ms: 1, tokens: { input: 2, output: 1 }, role: 'user' }));
    a.event(ev({ type: 'user_message', content: 'more' }));
    a.event(ev({ type: 'agent_message', content: 'ok', done: true }));
    const grade = a.open('grade');
    a.event(
      ev({
        type: 'llm_call',
        model: 'm-judge',
        latency_ms: 1,
        tokens: { input: 1, output: 1 },
        role: 'judge',
        error: 'judge model failed: 500',
      }),
    );
    a.event(ev({ type: 'check', name: 'judge', passed: false, score: 0, reason: 'no' }));
    grade.end();
    a.open('sandbox.stop').end();
    a.end(result('a', { status: 'FAILED', score: 0 }));

    // 2: a timeout with a tool call in flight.
    const b = await startTrialSpans(traced, input('b'), 's-b');
    b.event(ev({ type: 'user_message', content: 'hi' }));
    b.event(ev({ type: 'tool_call', tool: 'bash', args: { command: 'sleep 99' } }));
    b.end(
      result('b', {
        status: 'TIMEOUT',
        score: null,
        stop_reason: 'timeout',
        error: { kind: 'timeout', message: 'the trial exceeded trial_timeout_s = 1' },
      }),
    );

    // 3: nothing gradable.
    const c = await startTrialSpans(traced, input('c'), 's-c');
    c.end(result('c', { status: 'UNGRADABLE', score: null }));

    // 4: transcripts on: the calls' messages and answers (the judge's call in the Anthropic API).
    const d = await startTrialSpans(traced, input('d'), 's-d');
    const withCalls = transcriptTrial(result('d', { status: 'UNGRADABLE', score: null }), 'It has 3 lines.');
    const judgeCall = (withCalls.transcript?.calls ?? [])[3];
    Object.assign(judgeCall, { api: 'anthropic' });
    const judgeInput = judgeCall.input;
    judgeCall.input = [Object.keys(defined(withCalls.transcript).messages)[0], ...judgeInput]; // the agent's system prompt
    for (const e of withCalls.events) d.event(e);
    d.end(withCalls);

    traceIds = [a.traceId, b.traceId, c.traceId, d.traceId];
    await trace.end('complete');
    spans = collector.spans('otlp');
  });

  const one = (name: string, pred: (s: CollectedSpan) => boolean = () => true) => {
    const found = spans.filter((s) => s.name === name && pred(s));
    expect(found, name).toHaveLength(1);
    return found[0];
  };
  const trialOf = (id: string) => one('trial', (s) => s.attributes['benchrig.task_id'] === id);
  const kids = (p: CollectedSpan) => spans.filter((s) => s.parentSpanId === p.spanId);

  it('hangs every trial on the run span, in one trace that the trials report', () => {
    const run = one('run');
    expect(run.parentSpanId).toBeNull();
    expect(
      kids(run)
        .map((s) => s.attributes['benchrig.task_id'])
        .sort(),
    ).toEqual(['a', 'b', 'c', 'd']);
    expect(traceIds).toEqual([run.traceId, run.traceId, run.traceId, run.traceId]);
  });

  it('turns: agent.turn from each user message, user.turn in between, each holding its own model calls', () => {
    const a = trialOf('a');
    expect(
      kids(a)
        .map((s) => s.name)
        .sort(),
    ).toEqual(['agent.turn', 'agent.turn', 'grade', 'sandbox.start', 'sandbox.stop', 'user.turn', 'user.turn']);
    const turns = kids(a)
      .filter((s) => s.name === 'agent.turn')
      .sort((x, y) => x.startMs - y.startMs);
    expect(turns.map((t) => t.attributes['benchrig.turn'])).toEqual([1, 2]);
    const agentCall = one('llm.call', (s) => s.attributes['gen_ai.request.model'] === 'm-agent');
    expect(agentCall.parentSpanId).toBe(turns[0].spanId);
    expect(agentCall.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 5,
      'gen_ai.usage.output_tokens': 3,
      'gen_ai.operation.name': 'chat',
      'benchrig.llm.role': 'agent',
    });
    // back-dated by its latency: it started inside the turn, 20 ms before it ended
    expect(agentCall.endMs - agentCall.startMs).toBeCloseTo(20, 0);
    expect(agentCall.startMs).toBeGreaterThanOrEqual(turns[0].startMs);
    const userCall = one('llm.call', (s) => s.attributes['gen_ai.request.model'] === 'm-user');
    expect(spans.find((s) => s.spanId === userCall.parentSpanId)?.name).toBe('user.turn');
  });

  it('tool.exec: matched by call id, ERROR with the message when the tool failed', () => {
    const turn1 = kids(trialOf('a'))
      .filter((s) => s.name === 'agent.turn')
      .sort((x, y) => x.startMs - y.startMs)[0];
    const tools = kids(turn1).filter((s) => s.name === 'tool.exec');
    const byId = Object.fromEntries(tools.map((t) => [t.attributes['gen_ai.tool.call.id'], t]));
    expect(byId.c1.attributes).toMatchObject({
      'benchrig.tool.exit_code': 2,
      'benchrig.tool.args': '{"command":"ls"}',
    });
    expect(byId.c1.status).toEqual({ code: 2, message: 'ls: nope' });
    expect(byId.c2.attributes['benchrig.tool.exit_code']).toBe(0);
    expect(byId.c2.status.code).not.toBe(2);
  });

  it('grade holds the judge call (ERROR) and the verdicts; the trial carries its verdict', () => {
    const grade = one('grade');
    const judge = one(
      'llm.call',
      (s) => s.attributes['benchrig.llm.role'] === 'judge' && s.attributes['gen_ai.request.model'] === 'm-judge',
    );
    expect(judge.parentSpanId).toBe(grade.spanId);
    expect(judge.status).toEqual({ code: 2, message: 'judge model failed: 500' });
    expect(grade.events.map((e) => e.name)).toContain('check');
    expect(trialOf('a').attributes).toMatchObject({
      'benchrig.status': 'FAILED',
      'benchrig.score': 0,
      'benchrig.sample_id': 'a',
      'benchrig.session_id': 's-a',
    });
    expect(trialOf('a').status.code).toBe(1);
  });

  it('a failed trial is ERROR with the exception recorded, and its open spans end with it', () => {
    const b = trialOf('b');
    expect(b.status).toEqual({ code: 2, message: 'timeout: the trial exceeded trial_timeout_s = 1' });
    expect(b.attributes).toMatchObject({
      'benchrig.status': 'TIMEOUT',
      'benchrig.error.kind': 'timeout',
      'benchrig.stop_reason': 'timeout',
    });
    expect(b.attributes['benchrig.score']).toBeUndefined();
    expect(b.events.find((e) => e.name === 'exception')?.attributes['exception.message']).toMatch(/trial_timeout_s/);
    const turn = defined(kids(b).find((s) => s.name === 'agent.turn'));
    expect(turn.status.code).toBe(2);
    expect(kids(turn).map((s) => [s.name, s.status.code])).toEqual([['tool.exec', 2]]);
  });

  it('with a transcript, each llm.call carries its input and output messages as the GenAI conventions write them', () => {
    const calls = kids(trialOf('d'))
      .flatMap((p) => [p, ...kids(p)])
      .filter((s) => s.name === 'llm.call')
      .sort((x, y) => x.startMs - y.startMs);
    expect(calls.map((c) => c.attributes['benchrig.llm.role'])).toEqual(['agent', 'agent', 'user', 'judge']);
    const json = (c: CollectedSpan, k: string) => JSON.parse(String(c.attributes[k])) as unknown;
    // the second call's input holds the first call's tool call and its result; its output is the answer
    expect(json(calls[1], 'gen_ai.input.messages')).toEqual([
      { role: 'system', parts: [{ type: 'text', content: SYSTEM }] },
      { role: 'user', parts: [{ type: 'text', content: 'How many lines in notes.txt?' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'reasoning', content: 'I should count the lines first.' },
          { type: 'tool_call', id: 'call_1', name: 'bash', arguments: { command: 'wc -l notes.txt' } },
        ],
      },
      { role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_1', response: TOOL_OUTPUT }] },
    ]);
    expect(json(calls[1], 'gen_ai.output.messages')).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'It has 3 lines.' }], finish_reason: 'stop' },
    ]);
    expect(json(calls[0], 'gen_ai.output.messages')).toMatchObject([{ finish_reason: 'tool_call' }]);
    expect(calls[0].attributes['gen_ai.response.finish_reasons']).toEqual(['tool_call']);
    expect(calls[1].attributes['gen_ai.system_instructions']).toBeUndefined(); // Chat Completions: a message
    // an API with the system prompt apart (the judge's, in Anthropic's): in gen_ai.system_instructions
    expect(json(calls[3], 'gen_ai.system_instructions')).toEqual([{ type: 'text', content: SYSTEM }]);
    expect(json(calls[3], 'gen_ai.input.messages')).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'Grade this answer: It has 3 lines.' }] },
    ]);
    // the span keeps the call's time, though it ended with the trial
    expect(calls[1].endMs).toBeLessThanOrEqual(trialOf('d').endMs);
    // Langfuse gets the same attributes: its generation's input and output
    const lf = defined(collector.spans('langfuse').find((s) => s.spanId === calls[1].spanId));
    expect(lf.attributes['gen_ai.output.messages']).toBe(calls[1].attributes['gen_ai.output.messages']);
    // without a transcript (trial a), no messages on the spans
    const plain = one('llm.call', (s) => s.attributes['gen_ai.request.model'] === 'm-agent');
    expect(Object.keys(plain.attributes).filter((k) => /messages|instructions/.test(k))).toEqual([]);
  });

  it('Langfuse gets the same spans and one score per verdict on the trial observation', () => {
    expect(
      collector
        .spans('langfuse')
        .map((s) => s.spanId)
        .sort(),
    ).toEqual(spans.map((s) => s.spanId).sort());
    const scores = collector.scores().map((s) => [s.observationId, s.name, s.value, s.traceId]);
    const [a, b] = [trialOf('a'), trialOf('b')];
    expect(scores.sort()).toEqual(
      [
        [a.spanId, 'benchrig.passed', 0, a.traceId],
        [a.spanId, 'benchrig.score', 0, a.traceId],
        [b.spanId, 'benchrig.passed', 0, b.traceId], // a timeout counts as a failure; it has no score
      ].sort(),
    );
  });
});

describe('telemetry off', () => {
  it('a run without a traceparent gets no-op spans and no trace id', async () => {
    const t = await startTrialSpans(run, input('z'), 's-z');
    expect(t.traceId).toBeNull();
    t.event(ev({ type: 'user_message', content: 'x' }));
    t.open('grade').end(new Error('x'));
    t.end(result('z', {}));
  });
});
