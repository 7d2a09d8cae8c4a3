// The react agent in real Docker sandboxes, driven by the scripted model server: solving
// shell-tasks samples, running out of budget, and a recorded trial replayed offline.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, onlyRunDir, results, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';
import { startModelServer, type RecordedRequest, type Step } from '../support/model-server.ts';
import { filesContaining, modelEnv, SECRET, stable } from './models-helpers.ts';
import { defined } from '../support/defined.ts';
import type { TrajectoryEvent, TrialResult } from '../../src/types.ts';

const hasDocker = await requireDocker();
const tasks = readFileSync(join(REPO, 'benchmarks/shell-tasks/data/tasks.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
const solutionOf = (input: string) => tasks.find((t) => t.input === input)?.solution as string;
const IDS = ['count-lines', 'csv-select-columns', 'sort-versions'];

/** A model that runs the sample's reference solution with bash, then submits. */
function solver(req: RecordedRequest): Step {
  const msgs = req.body.messages;
  if (msgs.at(-1)?.role === 'tool') return { tool_calls: [{ name: 'submit', arguments: { answer: 'done' } }] };
  // The model echoes the key it was called with: no file of the run may hold it (afterAll).
  return {
    content: `Running the solution (called with ${req.headers.authorization})`,
    tool_calls: [{ name: 'bash', arguments: { command: solutionOf(msgs[1].content) } }],
  };
}

const outputs: string[] = [];
const out = () => {
  const d = tempDir('benchrig-react-');
  outputs.push(d);
  return d;
};
type ToolCall = Extract<TrajectoryEvent, { type: 'tool_call' }>;
const tools = (events: TrajectoryEvent[]) =>
  events.filter((e) => e.type === 'tool_call' || e.type === 'tool_result').map(({ step: _s, ts: _t, ...e }) => e);

/** Each call's messages and answer are in the result: the second call's input holds the first's tool result. */
function expectTranscript(x: TrialResult) {
  const t = defined(x.transcript);
  const msg = (key: string) => defined(t.messages[key]);
  expect(t.calls.map((c) => [c.source, c.api, c.model])).toEqual([
    ['agent', 'chat', 'fake-model-1'],
    ['agent', 'chat', 'fake-model-1'],
  ]);
  const calls = x.events.filter((e) => e.type === 'llm_call');
  expect(calls.map((e) => e.call)).toEqual(['c1', 'c2']);
  const [first, second] = t.calls;
  expect(first.input.map((k) => msg(k).role)).toEqual(['system', 'user']);
  expect(msg(first.input[1]).content).toBe(x.prompt);
  expect(first.tools?.map((tool) => tool.name)).toEqual(expect.arrayContaining(['bash', 'submit']));
  const answer = msg(defined(first.output).message);
  expect(answer.tool_calls?.map((c) => c.name)).toEqual(['bash']);
  expect(answer.content).toBe('Running the solution (called with Bearer ***)'); // the echoed key, scrubbed
  expect(first.output?.finish_reason).toBeDefined();
  // The second call resends the first's input: the same keys, then the answer and the bash result.
  expect(second.input.slice(0, 3)).toEqual([...first.input, first.output?.message]);
  const result = msg(defined(second.input[3]));
  const bash = x.events.find((e) => e.type === 'tool_result' && e.tool === 'bash');
  expect(result).toMatchObject({ role: 'tool', tool_call_id: answer.tool_calls?.[0].id });
  expect(result.content).toContain((bash as { output: string }).output.trim());
  expect(msg(defined(second.output).message).tool_calls?.map((c) => c.name)).toEqual(['submit']);
  // Stored once: four distinct messages in the calls' inputs, two answers.
  expect(Object.keys(t.messages)).toHaveLength(5);
}

afterAll(() => {
  for (const d of outputs) expect(filesContaining(d, SECRET), d).toEqual([]);
});

describe.skipIf(!hasDocker)('react agent against the scripted model server', () => {
  let live: { dir: string; requests: RecordedRequest[] } | undefined;

  it('solves shell-tasks samples with bash and submit', async () => {
    const server = await startModelServer(solver);
    try {
      const o = out();
      const r = await runCli(
        ['run', 'shell-tasks', '--agent', 'react', '--sample', IDS.join(','), '--mode', 'single', '--output', o],
        { env: modelEnv(server.url) },
      );
      const dir = onlyRunDir(o, 'react', 'shell-tasks');
      const res = results(dir);
      expect(res.map((x) => [x.sample_id, x.status]).sort(), r.stderr).toEqual(IDS.map((id) => [id, 'PASSED']));
      expect(server.requests).toHaveLength(6);
      for (const x of res) {
        expect(tools(x.events).map((e) => `${e.type}:${e.tool}`)).toEqual([
          'tool_call:bash',
          'tool_result:bash',
          'tool_call:submit',
          'tool_result:submit',
        ]);
        expect((tools(x.events)[1] as { exit_code?: number }).exit_code).toBe(0); // the bash tool_result (asserted above)
        expect(x.metadata.llm_calls).toBe(2);
        expect(x.stop_reason).toBe('agent_done');
        expectTranscript(x);
      }
      live = { dir, requests: [...server.requests] };
    } finally {
      await server.close();
    }
  });

  it('replaying the live transcript as an OpenAI message list records the same tool events', async () => {
    expect(live).toBeDefined();
    const { dir, requests } = defined(live);
    const liveRes = defined(results(dir).find((x) => x.sample_id === 'count-lines'));
    const last = defined(requests.filter((q) => q.body.messages[1].content === liveRes.prompt).at(-1));
    const submitCall = defined(
      liveRes.events.find((e): e is ToolCall => e.type === 'tool_call' && e.tool === 'submit'),
    );
    const messages = [
      ...last.body.messages,
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: submitCall.id,
            type: 'function',
            function: { name: 'submit', arguments: JSON.stringify(submitCall.args) },
          },
        ],
      },
      { role: 'tool', tool_call_id: submitCall.id, content: 'submitted' },
    ];
    const o = out();
    // Outside the scanned output: the live answers it is made of echo the key (solver).
    const file = join(tempDir('benchrig-replay-'), 'transcripts.jsonl');
    writeFileSync(file, JSON.stringify({ sample_id: 'count-lines', messages }) + '\n');
    await runCli([
      'run',
      'shell-tasks',
      '--agent',
      'replay',
      '--agent-opt',
      `predictions=${file}`,
      '--sample',
      'count-lines',
      '--mode',
      'single',
      '--output',
      o,
    ]);
    const [res] = results(onlyRunDir(o, 'replay', 'shell-tasks'));
    expect(tools(res.events)).toEqual(tools(liveRes.events));
    expect(res.response).toBe(liveRes.response);
  });

  it('--max-llm-calls 3: exactly 3 requests reach the server, stop llm_budget with a limit event, graded', async () => {
    const server = await startModelServer(() => ({
      tool_calls: [{ name: 'bash', arguments: { command: 'echo again' } }],
    }));
    try {
      const o = out();
      const r = await runCli(
        [
          'run',
          'shell-tasks',
          '--agent',
          'react',
          '--sample',
          'count-lines',
          '--max-llm-calls',
          '3',
          '--mode',
          'single',
          '--output',
          o,
        ],
        { env: modelEnv(server.url) },
      );
      const [res] = results(onlyRunDir(o, 'react', 'shell-tasks'));
      expect(server.requests).toHaveLength(3);
      expect(res.stop_reason, r.stderr).toBe('llm_budget');
      expect(res.status).toBe('FAILED');
      expect(res.checks[0].passed).toBe(false);
      expect(res.metadata.llm_calls).toBe(3);
      expect(res.metadata.limit).toEqual({ kind: 'llm_calls', value: 4, limit: 3 });
      const beforeGrading = res.events.slice(
        0,
        res.events.findIndex((e) => e.type === 'check'),
      );
      expect(beforeGrading.at(-1)).toMatchObject({ type: 'limit', kind: 'llm_calls', value: 4, limit: 3 });
    } finally {
      await server.close();
    }
  });

  it('--llm-cache record, then replay with the server gone: same events and verdicts', async () => {
    const server = await startModelServer(solver);
    const o = out();
    const args = [
      'run',
      'shell-tasks',
      '--agent',
      'react',
      '--sample',
      'count-lines',
      '--mode',
      'single',
      '--output',
      o,
    ];
    let recorded: TrialResult | undefined;
    try {
      await runCli([...args, '--llm-cache', 'record'], { env: modelEnv(server.url) });
      [recorded] = results(onlyRunDir(o, 'react', 'shell-tasks'));
      expect(recorded.status).toBe('PASSED');
    } finally {
      await server.close();
    }
    const seen = server.requests.length;
    const r = await runCli([...args, '--llm-cache', 'replay'], { env: modelEnv(server.url) });
    const dirs = readdirSync(join(o, 'react', 'shell-tasks')).sort();
    expect(dirs).toHaveLength(2);
    const [again] = results(join(o, 'react', 'shell-tasks', dirs[1]));
    expect(server.requests.length).toBe(seen);
    expect(again.status, r.stderr).toBe(recorded.status);
    expect(stable(again.events)).toEqual(stable(recorded.events));
    expect(again.checks).toEqual(recorded.checks);
  });
});
