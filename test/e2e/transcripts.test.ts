// Issue #37: model calls' transcripts through the real CLI, against the scripted model server (no
// sandbox: models-local needs none). A module agent's 40-call conversation is stored linear in what
// was said; --verbose shows each answer's first lines; --no-transcripts keeps metadata only; an
// agent cannot forge a transcript call with ctx.record.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, onlyRunDir, results, runCli, tempDir } from '../support/cli.ts';
import { startModelServer, type ModelServer } from '../support/model-server.ts';
import { filesContaining, modelEnv, SECRET } from './models-helpers.ts';
import { defined } from '../support/defined.ts';
import type { TrialResult } from '../../src/types.ts';

const bench = join(FIXTURES, 'benchmarks/models-local');
const agent = (name: string) => join(FIXTURES, 'agents', `${name}.ts`);
const outputs: string[] = [];
const out = () => {
  const d = tempDir('benchrig-transcripts-');
  outputs.push(d);
  return d;
};

afterAll(() => {
  for (const d of outputs) expect(filesContaining(d, SECRET), d).toEqual([]);
});

/** An answer of about 2 KB, its first line naming the call. */
const answer = (n: number) => `Answer ${n}: yes.\n${'consectetur adipiscing elit '.repeat(72)}`;

async function run(server: ModelServer, agentName: string, extra: string[] = []) {
  const o = out();
  const r = await runCli(
    ['run', bench, '--agent', agent(agentName), '--sample', 'greet', '--mode', 'single', '--output', o, ...extra],
    { env: modelEnv(server.url) },
  );
  const dir = onlyRunDir(o, agentName, 'models-local');
  const [res] = results(dir);
  return { r, res, dir };
}

/** The characters of every distinct message text of the conversation. */
function distinctText(res: TrialResult): number {
  return Object.values(defined(res.transcript).messages).reduce(
    (n, m) => n + (typeof m.content === 'string' ? m.content.length : JSON.stringify(m.content).length),
    0,
  );
}

describe('transcripts of model calls', () => {
  it('a 40-call conversation of growing history is stored once per message, within 1.5x its distinct text; --verbose shows the answers', async () => {
    const server = await startModelServer((_req, n) => ({ content: answer(n) }));
    try {
      const { r, res, dir } = await run(server, 'long-conversation', ['--verbose']);
      expect(res.status, r.stderr).not.toBe('AGENT_ERROR');
      const t = defined(res.transcript);
      expect(t.calls).toHaveLength(40);
      expect(t.truncated).toBeUndefined();
      // Each call's input is the previous call's input, its answer, and one new question.
      for (let i = 1; i < 40; i++) {
        const [prev, call] = [t.calls[i - 1], t.calls[i]];
        expect(call.input).toEqual([...prev.input, defined(prev.output).message, expect.any(String)]);
        expect(call.params).toEqual({ temperature: 0 });
      }
      expect(t.messages[defined(t.calls[39].output).message].content).toBe(answer(40));
      expect(Object.keys(t.messages)).toHaveLength(1 + 40 + 40);
      // The bytes a resent history would cost (every call's input whole) are 20x what is stored.
      const stored = JSON.stringify(t).length;
      expect(stored).toBeLessThanOrEqual(1.5 * distinctText(res));
      const whole = server.requests.reduce((n, q) => n + JSON.stringify(q.body.messages).length, 0);
      expect(whole).toBeGreaterThan(15 * stored);
      // --verbose: each answer's first line under the trial's task id.
      for (const n of [1, 40]) expect(r.stderr).toMatch(new RegExp(`^  ${res.task_id} │ Answer ${n}: yes\\.$`, 'm'));
      // report --trial: every call, each new question once, each answer; a resent history is not printed again.
      const shown = await runCli(['report', dir, '--trial', res.task_id]);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toContain('40 model call(s), 81 distinct message(s)');
      expect(shown.stdout).toMatch(
        /^── c40 agent chat fake-model-1 · \d+ ms · in \d+ out \d+ · stop · \{"temperature":0\}$/m,
      );
      expect(shown.stdout.match(/^ {5}Question \d+ about/gm)).toHaveLength(40);
      expect(shown.stdout.match(/^ {7}Answer \d+: yes\.$/gm)).toHaveLength(40);
      expect(shown.stdout).toContain('   … 79 earlier message(s)');
      const json = await runCli(['report', dir, '--trial', res.sample_id, '--format', 'json']);
      expect(JSON.parse(json.stdout)).toEqual(t);
      const missing = await runCli(['report', dir, '--trial', 'nope']);
      expect([missing.code, missing.stderr.trim()]).toEqual([
        2,
        `benchrig: --trial nope: no such trial in ${dir} (trials: ${res.task_id})`,
      ]);
    } finally {
      await server.close();
    }
  });

  it('--no-transcripts: the calls keep their events and counts, no transcript', async () => {
    const server = await startModelServer((_req, n) => ({ content: answer(n) }));
    try {
      const { r, res } = await run(server, 'long-conversation', ['--agent-opt', 'calls=2', '--no-transcripts']);
      expect(res.metadata.llm_calls, r.stderr).toBe(2);
      expect(res.transcript).toBeUndefined();
      const calls = res.events.filter((e) => e.type === 'llm_call');
      expect(calls).toHaveLength(2);
      for (const e of calls) expect(e).not.toHaveProperty('call');
    } finally {
      await server.close();
    }
  });

  it("a refused call keeps the server's status and body, the key it echoed scrubbed", async () => {
    const server = await startModelServer([{ status: 400, message: `context too long (key ${SECRET})` }]);
    try {
      const { r, res } = await run(server, 'long-conversation', ['--agent-opt', 'calls=1']);
      expect(res.status, r.stderr).toBe('AGENT_ERROR');
      const [call] = defined(res.transcript).calls;
      expect(call).toMatchObject({ source: 'agent', output: null, error: { status: 400 } });
      expect(JSON.parse(defined(call.error).body)).toMatchObject({ message: 'context too long (key ***)' });
      expect(call.input).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('an agent that records a forged llm_call naming a transcript call gets neither the call nor a transcript', async () => {
    const server = await startModelServer([{ content: 'hello from the model' }]);
    try {
      const { r, res } = await run(server, 'forge-transcript', ['--verbose']);
      const calls = res.events.filter((e) => e.type === 'llm_call');
      expect(calls.map((e) => [e.model, e.call])).toEqual([
        ['gpt-forged', undefined],
        ['fake-model-1', 'c1'],
      ]);
      const t = defined(res.transcript);
      expect(t.calls).toHaveLength(1);
      expect(t.calls[0]).toMatchObject({ id: 'c1', source: 'agent', model: 'fake-model-1' });
      expect(t.messages[defined(t.calls[0].output).message].content).toBe('hello from the model');
      expect(r.stderr).not.toContain('the model agreed');
    } finally {
      await server.close();
    }
  });
});
