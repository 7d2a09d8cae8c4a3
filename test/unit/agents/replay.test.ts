import { describe, expect, it } from 'vitest';
import { parsePredictions, transcriptTurns } from '../../../src/agents/replay.ts';

describe('replay predictions', () => {
  it('reads JSONL, a JSON array, and a JSON object keyed by sample id (message lists included)', () => {
    const jsonl = parsePredictions(
      '{"sample_id":1,"response":"a"}\n\n{"sample_id":"b","responses":["x","y"]}\n',
      'p.jsonl',
    );
    expect(jsonl.get('1')?.turns.map((t) => t.content)).toEqual(['a']);
    expect(jsonl.get('b')?.turns.map((t) => t.content)).toEqual(['x', 'y']);
    const arr = parsePredictions('[{"sample_id":"s","response":"r","final_state":{"k":1}}]', 'p.json');
    expect(arr.get('s')).toMatchObject({ finalState: { k: 1 } });
    const map = parsePredictions('{"s1":[{"role":"user","content":"q"},{"role":"assistant","content":"a"}]}', 'p.json');
    expect(map.get('s1')?.turns).toEqual([{ events: [], content: 'a', submitted: false }]);
  });

  it('names the file and line of a bad entry', () => {
    expect(() => parsePredictions('{"sample_id":"a","response":"x"}\n{oops\n', 'p.jsonl')).toThrow(
      /p.jsonl: line 2: invalid JSON/,
    );
    expect(() => parsePredictions('{"response":"x"}\n{"response":"y"}\n', 'p.jsonl')).toThrow(/line 1: no sample_id/);
  });

  it('splits a transcript into turns at user messages, tool names looked up by call id', () => {
    const turns = transcriptTurns([
      { role: 'user', content: 'q1' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: 'not json' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'body' },
      { role: 'assistant', content: 'a1' },
      { role: 'user', content: 'q2' },
      { role: 'assistant', content: 'a2' },
    ]);
    expect(turns).toEqual([
      {
        content: 'a1',
        submitted: false,
        events: [
          { type: 'tool_call', tool: 'read_file', args: { _raw: 'not json' }, id: 'c1' },
          { type: 'tool_result', tool: 'read_file', output: 'body', id: 'c1' },
        ],
      },
      { content: 'a2', submitted: false, events: [] },
    ]);
  });
});
