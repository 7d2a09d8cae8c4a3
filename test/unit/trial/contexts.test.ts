// What an agent reports it retrieved (docs/agents.md#retrieved-contexts), from an adversary: wrong
// shapes break the contract (an error naming it: AGENT_ERROR), sizes are bounded, and an agent
// cannot record a context list as if its reply had carried it.
import { describe, expect, it } from 'vitest';
import { MAX_CONTEXT_CHARS, MAX_CONTEXTS, MAX_RETRIEVED_EVENTS } from '../../../src/limits.ts';
import { agentRecord, boundedContexts, replyContexts } from '../../../src/trial/contexts.ts';
import type { NewEvent } from '../../../src/types.ts';

const CONTRACT =
  /contexts must be a list of \{id\?: string, text: string, score\?: number\}.*docs\/agents\.md#retrieved-contexts/;

describe('a reply with contexts', () => {
  it('becomes a retrieved event of the reply and its turn; no contexts key, no event', () => {
    expect(replyContexts({ content: 'x', contexts: [{ id: 7, text: 't', score: 0.5 }] }, 2)).toEqual({
      type: 'retrieved',
      source: 'reply',
      turn: 2,
      contexts: [{ id: '7', text: 't', score: 0.5 }],
    });
    expect(replyContexts({ content: 'x' }, 1)).toBeNull();
    expect(replyContexts({ content: 'x', contexts: undefined }, 1)).toBeNull();
    expect(replyContexts('just text', 1)).toBeNull();
    expect(replyContexts({ content: 'x', contexts: [] }, 1)).toMatchObject({ contexts: [] });
  });

  it('refuses what is not a list of {id?, text, score?}, naming the item', () => {
    const bad = (contexts: unknown) => () => replyContexts({ content: 'x', contexts }, 1);
    expect(bad('doc-1')).toThrow(/^respond\(\) returned contexts is not a list: /);
    expect(bad({ 0: { text: 'a' } })).toThrow(CONTRACT);
    expect(bad([{ text: 'a' }, 'b'])).toThrow(/contexts\[1\] is not an object/);
    expect(bad([null])).toThrow(/contexts\[0\] is not an object/);
    expect(bad([{ text: 42 }])).toThrow(/contexts\[0\]\.text is not a string/);
    expect(bad([{ id: 'a' }])).toThrow(/contexts\[0\]\.text is not a string/);
    expect(bad([{ text: 'a', score: NaN }])).toThrow(/contexts\[0\]\.score is not a finite number/);
    expect(bad([{ text: 'a', score: Infinity }])).toThrow(/score is not a finite number/);
    expect(bad([{ text: 'a', score: '0.9' }])).toThrow(/score is not a finite number/);
    expect(bad([{ text: 'a', id: { $ne: null } }])).toThrow(/contexts\[0\]\.id is neither a string nor a number/);
    expect(bad([{ text: 'a', id: NaN }])).toThrow(/id is neither/);
  });

  it('keeps the first MAX_CONTEXTS of a huge list without looking at the rest, and cuts long texts', () => {
    const huge: unknown[] = Array.from({ length: 1_000_000 }, (_, i) => ({ id: `d${i}`, text: 'x' }));
    huge[MAX_CONTEXTS] = { text: 123, score: NaN }; // past the bound: never looked at
    huge[0] = { id: 'long', text: 'y'.repeat(MAX_CONTEXT_CHARS * 50) };
    const started = performance.now();
    const b = boundedContexts(huge, 'contexts');
    expect(performance.now() - started).toBeLessThan(500);
    expect(b.contexts).toHaveLength(MAX_CONTEXTS);
    expect(b.dropped).toBe(1_000_000 - MAX_CONTEXTS);
    expect(b.cut).toBe(1);
    expect(b.contexts[0].text).toHaveLength(MAX_CONTEXT_CHARS);
    expect(b.contexts.at(-1)).toEqual({ id: `d${MAX_CONTEXTS - 1}`, text: 'x' });
    expect(JSON.stringify(b).length).toBeLessThan(MAX_CONTEXT_CHARS + 100 * MAX_CONTEXTS);
  });

  it('keeps only id, text and score of each item', () => {
    const b = boundedContexts([{ text: 't', embedding: new Array(10_000).fill(0.1), id: 'a' }], 'c');
    expect(b.contexts).toEqual([{ id: 'a', text: 't' }]);
  });
});

describe('ctx.record of a retrieved event', () => {
  const recorder = () => {
    const events: NewEvent[] = [];
    return { events, record: agentRecord((e) => events.push(e)) };
  };

  it("is rebuilt as the agent's own (source tool): it cannot pose as a reply's", () => {
    const r = recorder();
    r.record({
      type: 'retrieved',
      source: 'reply',
      turn: 1,
      tool: 'search',
      contexts: [{ id: 'a', text: 'A', score: 1 }],
      extra: 'x'.repeat(100_000),
    } as unknown as NewEvent);
    expect(r.events).toEqual([
      { type: 'retrieved', source: 'tool', tool: 'search', contexts: [{ id: 'a', text: 'A', score: 1 }] },
    ]);
  });

  it('refuses a malformed list (nothing recorded), and more than MAX_RETRIEVED_EVENTS a trial', () => {
    const r = recorder();
    expect(() => r.record({ type: 'retrieved', contexts: 'a' } as unknown as NewEvent)).toThrow(
      /^ctx\.record\(\{type: "retrieved", contexts\}\): contexts is not a list/,
    );
    expect(r.events).toEqual([]);
    const ok = { type: 'retrieved', contexts: [{ text: 't' }] } as unknown as NewEvent;
    for (let i = 1; i < MAX_RETRIEVED_EVENTS; i++) r.record(ok); // the malformed one counted too
    expect(() => r.record(ok)).toThrow(/more than 100 retrieved events in one trial/);
    expect(r.events).toHaveLength(MAX_RETRIEVED_EVENTS - 1);
  });

  it('passes every other event through unchanged', () => {
    const r = recorder();
    const call: NewEvent = { type: 'tool_call', tool: 'search', args: { q: 'x' } };
    r.record(call);
    expect(r.events[0]).toBe(call);
  });
});
