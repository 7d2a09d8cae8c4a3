// The presets' volatile patterns (docs/agents.md#installed-agents "--llm-cache with CLIs"): two runs of the same trial send
// requests that differ only in what the CLI makes up per run, and those must share a cache key; a
// real difference (another tool output) must not. The requests are shaped as the CLIs sent them.
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../../../src/agents/installed/presets.ts';
import { gatewayCacheKey } from '../../../../src/gateway/cache-key.ts';
import { defined } from '../../../support/defined.ts';

/** A Codex Responses request as codex 0.171 sends it, with the per-run values given. */
function codexRequest(o: {
  session: string;
  turn: string;
  startedMs: number;
  chunk: string;
  wall: string;
  output?: string;
}) {
  const meta = {
    installation_id: 'a0e1c2d3-1111-4222-8333-944455556666',
    session_id: o.session,
    turn_id: o.turn,
    window_id: `${o.session}:0`,
    turn_started_at_unix_ms: o.startedMs,
    model: 'm',
  };
  return {
    model: 'm',
    stream: true,
    input: [
      {
        type: 'message',
        role: 'user',
        id: `msg_${o.turn}`,
        content: [{ type: 'input_text', text: 'Write 42 into answer.txt' }],
      },
      {
        type: 'function_call',
        id: 'fc_0',
        call_id: 'call_0',
        name: 'exec_command',
        arguments: '{"cmd":"echo 42 > answer.txt"}',
      },
      {
        type: 'function_call_output',
        id: `fco_${o.turn}`,
        call_id: 'call_0',
        output: `Chunk ID: ${o.chunk}\nWall time: ${o.wall} seconds\nProcess exited with code 0\nOutput:\n${o.output ?? 'ok'}\n`,
      },
    ],
    prompt_cache_key: o.session,
    client_metadata: { session_id: o.session, turn_id: o.turn, 'x-codex-turn-metadata': JSON.stringify(meta) },
  };
}

const runA = {
  session: '01a2322d-c0a8-7231-9c11-d795d1679390',
  turn: '01a2322d-c139-75b2-b01b-9890211061a3',
  startedMs: 1796138189117,
  chunk: '6ec241',
  wall: '0.5973',
};
const runB = {
  session: '01a2322d-da6e-7803-93d2-a85831796c2f',
  turn: '01a2322d-daf0-7960-8db5-5b29af298f0c',
  startedMs: 1796138263312,
  chunk: 'fcee55',
  wall: '0.4118',
};
const key = (preset: string, body: Record<string, unknown>) =>
  gatewayCacheKey('/responses', body, 'trial 1', PRESETS[preset].volatile);

describe('preset volatile patterns and the cache key', () => {
  it('codex: ids, the turn start time, the chunk id and the wall time do not change the key', () => {
    expect(key('codex', codexRequest(runA))).toBe(key('codex', codexRequest(runB)));
  });

  it('codex: only the start time differing is enough to miss without its pattern', () => {
    const same = { ...runA, startedMs: runA.startedMs + 1 };
    expect(
      gatewayCacheKey('/responses', codexRequest(runA), 'trial 1', defined(PRESETS.codex.volatile).slice(0, 3)),
    ).not.toBe(
      gatewayCacheKey('/responses', codexRequest(same), 'trial 1', defined(PRESETS.codex.volatile).slice(0, 3)),
    );
    expect(key('codex', codexRequest(runA))).toBe(key('codex', codexRequest(same)));
  });

  it('codex: another tool output is another request', () => {
    expect(key('codex', codexRequest(runA))).not.toBe(key('codex', codexRequest({ ...runA, output: 'not ok' })));
  });

  it('qwen-code: the process group id of its shell tool does not change the key', () => {
    const body = (pgid: number, out = 'ok') => ({
      model: 'm',
      messages: [
        { role: 'tool', tool_call_id: 'c0', content: `Command: echo 42\nOutput: ${out}\nProcess Group PGID: ${pgid}` },
      ],
    });
    const k = (b: Record<string, unknown>) =>
      gatewayCacheKey('/chat/completions', b, 'trial 1', PRESETS['qwen-code'].volatile);
    expect(k(body(311))).toBe(k(body(97)));
    expect(k(body(311))).not.toBe(k(body(311, 'not ok')));
  });
});
