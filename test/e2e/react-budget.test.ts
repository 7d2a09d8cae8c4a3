// react without a sandbox, against the scripted model server (issue #23): its system prompt names
// only the tool it offers (submit), and a trial whose --max-llm-calls ran out — mid-turn or between
// a simulated user's turns — ends its conversation with a `limit` event and sets metadata.limit.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, onlyRunDir, results, runCli, tempDir } from '../support/cli.ts';
import { startModelServer, type Script } from '../support/model-server.ts';
import { modelEnv } from './models-helpers.ts';
import type { TrialResult } from '../../src/types.ts';

const LOCAL = join(FIXTURES, 'benchmarks/models-local');

async function react(script: Script, maxCalls: number) {
  const server = await startModelServer(script);
  try {
    const out = tempDir();
    const r = await runCli(
      ['run', LOCAL, '--agent', 'react', '--sample', 'capitals', '--max-llm-calls', String(maxCalls), '--output', out],
      { env: modelEnv(server.url) },
    );
    const [res] = results(onlyRunDir(out, 'react', 'models-local'));
    return { r, res, requests: [...server.requests] };
  } finally {
    await server.close();
  }
}

/** The conversation's events: everything before grading's `check` events. */
const conversation = (res: TrialResult) =>
  res.events.slice(
    0,
    res.events.findIndex((e) => e.type === 'check'),
  );

describe('react without a sandbox', () => {
  it('offers submit and names no other tool in its system prompt', async () => {
    const { r, res, requests } = await react(
      [{ tool_calls: [{ name: 'submit', arguments: { answer: 'Paris' } }] }, { content: 'Rome' }],
      5,
    );
    expect(res.status, r.stderr).toBe('PASSED');
    for (const q of requests) {
      const tools = (q.body.tools ?? []) as { function: { name: string } }[];
      expect(tools.map((t) => t.function.name)).toEqual(['submit']);
      const system = String(q.body.messages[0].content);
      expect(q.body.messages[0].role).toBe('system');
      expect(system).toContain('`submit`');
      expect(system).not.toMatch(/bash|read_file|write_file|environment/);
    }
  });

  it('budget spent between turns: the trial ends with a limit event and metadata.limit', async () => {
    // One call answers the first question; the simulated user asks a second; none is left for it.
    const { r, res, requests } = await react([{ content: 'Paris' }], 1);
    expect(requests).toHaveLength(1);
    expect(res.stop_reason, r.stderr).toBe('llm_budget');
    expect(res.metadata.limit).toEqual({ kind: 'llm_calls', value: 2, limit: 1 });
    const events = conversation(res);
    expect(events.at(-1)).toMatchObject({ type: 'limit', kind: 'llm_calls', value: 2, limit: 1 });
    expect(events.filter((e) => e.type === 'limit')).toHaveLength(1);
    expect(res.response).toContain('Paris'); // graded on what it said
  });

  it('budget spent mid-turn: the call past it is never sent, and the trial ends with a limit event', async () => {
    // A model that keeps calling a tool react does not offer here: every call is answered with an error.
    const { r, res, requests } = await react(
      () => ({ tool_calls: [{ name: 'bash', arguments: { command: 'ls' } }] }),
      2,
    );
    expect(requests).toHaveLength(2);
    expect(res.stop_reason, r.stderr).toBe('llm_budget');
    expect(res.metadata.limit).toEqual({ kind: 'llm_calls', value: 3, limit: 2 });
    expect(conversation(res).at(-1)).toMatchObject({ type: 'limit', kind: 'llm_calls', value: 3, limit: 2 });
    const answered = res.events.filter((e) => e.type === 'tool_result');
    expect(answered.map((e) => e.error)).toEqual([
      "unknown tool 'bash'; available: submit",
      "unknown tool 'bash'; available: submit",
    ]);
  });
});
