// A call's messages on its span are bounded: long texts keep head and tail, a long history its
// newest messages with the count of those left out; a call kept as metadata only has none.
import { describe, expect, it } from 'vitest';
import { callMessageAttributes } from '../../../src/telemetry/genai-messages.ts';
import type { TrialResult } from '../../../src/types.ts';
import { transcriptOf } from '../../support/transcript-fixture.ts';

const trialWith = (transcript: Record<string, unknown>) => ({ transcript }) as unknown as TrialResult;

describe('the GenAI message attributes of a call', () => {
  it('keeps the newest messages of a long history, each text bounded, and says how many were left out', () => {
    const history = Array.from({ length: 200 }, (_, i) => ({
      role: i % 2 ? ('assistant' as const) : ('user' as const),
      content: `turn ${i} ${'w'.repeat(i === 199 ? 50_000 : 1_000)}`,
    }));
    const t = transcriptOf([
      { source: 'agent', input: history, output: { role: 'assistant', content: 'last' } },
      { source: 'agent', input: history.slice(0, 1), output: null },
    ]);
    const calls = t.calls as Array<Record<string, unknown>>;
    calls[1].metadata_only = true;
    const attrs = callMessageAttributes(trialWith(t));
    const a = attrs('c1');
    const input = JSON.parse(String(a['gen_ai.input.messages'])) as Array<{ parts: Array<{ content: string }> }>;
    expect(String(a['gen_ai.input.messages']).length).toBeLessThanOrEqual(64_000);
    expect(a['benchrig.llm.input_messages_dropped']).toBe(200 - input.length);
    const newest = input.at(-1)?.parts[0].content ?? '';
    expect(newest.startsWith('turn 199')).toBe(true);
    expect(newest).toMatch(/\[\d+ characters cut\]/);
    expect(newest.length).toBeLessThan(4_100);
    expect(attrs('c2')).toEqual({});
    expect(attrs('nope')).toEqual({});
  });
});
