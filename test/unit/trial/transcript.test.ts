// The transcript's bounds (docs/reports.md#transcripts): a text over the bound keeps its head and
// tail with the cut marked, and past the trial's total later calls keep their metadata only, the
// cut said in the transcript; every string is scrubbed before it is stored or hashed.
import { describe, expect, it } from 'vitest';
import { scrubberFor } from '../../../src/config/scrub.ts';
import { TranscriptStore } from '../../../src/trial/transcript.ts';
import type { CallTranscript } from '../../../src/types.ts';

const call = (user: string, answer = 'ok', error?: CallTranscript['error']): CallTranscript => ({
  source: 'agent',
  api: 'chat',
  started_at: new Date(0).toISOString(),
  input: [{ role: 'user', content: user }],
  output: error ? null : { message: { role: 'assistant', content: answer } },
  ...(error ? { error } : {}),
});

describe('TranscriptStore', () => {
  it('cuts a long text to its head and tail, marked, and says how long it was', () => {
    const store = new TranscriptStore(undefined, { textChars: 100, totalChars: 1e6 });
    const text = `HEAD${'x'.repeat(10_000)}TAIL`;
    store.add(call(text), 'm', 1);
    const t = store.toJSON();
    const m = Object.values(t?.messages ?? {}).find((x) => x.role === 'user');
    expect(m?.truncated).toEqual({ original_chars: text.length });
    expect(m?.content).toMatch(/^HEADx+\n…\[benchrig: 9908 characters cut\]…\nx+TAIL$/);
    expect(String(m?.content).length).toBeLessThan(200);
  });

  it('past the total bound, later calls keep metadata only and the transcript says how many', () => {
    const store = new TranscriptStore(undefined, { textChars: 1000, totalChars: 3000 });
    for (let i = 0; i < 6; i++) store.add(call(`q${i} ${'y'.repeat(900)}`), 'm', 5);
    store.add(call('small', '', { status: 500, body: 'upstream down' }), 'm', 5);
    const t = store.toJSON();
    const kept = t?.calls.filter((c) => !c.metadata_only) ?? [];
    const cut = t?.calls.filter((c) => c.metadata_only) ?? [];
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length + cut.length).toBe(7);
    expect(t?.calls.map((c) => c.id)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7']);
    for (const c of cut) expect(c).toMatchObject({ input: [], output: null, model: 'm', latency_ms: 5 });
    expect(cut.at(-1)?.error).toEqual({ status: 500, body: 'upstream down' }); // metadata: the failure too
    expect(t?.truncated).toMatchObject({ calls_without_content: cut.length });
    expect(JSON.stringify(t?.messages).length).toBeLessThanOrEqual(3000);
  });

  it('scrubs before hashing: a key, and the same message sent again, is stored once, scrubbed', () => {
    const key = 'sk-live-abcdef123456';
    const store = new TranscriptStore(scrubberFor([key]));
    store.add(call(`my key is ${key}`, `echo ${key}`), 'm', 1);
    store.add(call(`my key is ${key}`), 'm', 1);
    const t = store.toJSON();
    expect(JSON.stringify(t)).not.toContain(key);
    expect(Object.values(t?.messages ?? {}).map((m) => m.content)).toEqual(['my key is ***', 'echo ***', 'ok']);
    expect(t?.calls[0].input).toEqual(t?.calls[1].input);
  });
});
