// The agent contract (docs/agents.md#writing-an-agent): what a factory returns and what respond() returns.
import { describe, expect, it } from 'vitest';
import { AgentContractError, checkAgent, normaliseReply, shapeOf, agentProblem } from '../../../src/agents/contract.ts';

describe('normaliseReply', () => {
  it('takes a string as {content} and an object as it is, keys it does not know included', () => {
    expect(normaliseReply('Paris')).toEqual({ content: 'Paris' });
    expect(normaliseReply('')).toEqual({ content: '' });
    const reply = { content: 'x', done: true, blocked: false, state: { a: 1 }, extra: [1] };
    expect(normaliseReply(reply)).toBe(reply);
    expect(normaliseReply({ content: 'x', state: null })).toEqual({ content: 'x', state: null });
  });

  it.each([
    [42, 'respond() returned a number (42)'],
    [undefined, 'respond() returned undefined'],
    [null, 'respond() returned null'],
    [['x'], 'respond() returned an array'],
    [true, 'respond() returned a boolean (true)'],
    [{}, 'respond() returned an object without content (it has no keys)'],
    [{ text: 'x' }, 'respond() returned an object without content (it has text)'],
    [{ content: null }, 'respond() returned content that is null'],
    [{ content: ['x'] }, 'respond() returned content that is an array'],
    [{ content: 'x', blocked: 1 }, 'respond() returned blocked that is a number'],
    [{ content: 'x', state: 'done' }, 'respond() returned state that is a string'],
  ])('refuses %j, naming what it got and the contract', (reply, what) => {
    const err = (() => {
      try {
        normaliseReply(reply);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(AgentContractError);
    expect((err as Error).message).toBe(
      `${what}; it must return a string or { content: string, done?: boolean, blocked?: boolean, state?: object, contexts?: [{ id?, text, score? }] } (docs/agents.md#writing-an-agent)`,
    );
  });
});

describe('checkAgent', () => {
  it('accepts an object or a class instance whose respond is a method', () => {
    class Mine {
      async respond() {
        return 'x';
      }
    }
    const plain = { respond: async () => 'x' };
    expect(checkAgent(plain)).toBe(plain);
    expect(checkAgent(new Mine())).toBeInstanceOf(Mine);
  });

  it('refuses no agent, no respond, or a respond that is not a function, listing what it has', () => {
    expect(() => checkAgent(undefined)).toThrow(
      "the agent's factory returned undefined; the factory must return { respond(message), close?() } (docs/agents.md#writing-an-agent)",
    );
    expect(() => checkAgent({ reply: () => 'x', close: () => {} })).toThrow(
      "the agent's factory returned an object with no respond (it has reply, close);",
    );
    expect(() => checkAgent({ respond: 'Paris' })).toThrow(
      "the agent's factory returned an object with a respond that is a string (it has respond);",
    );
    class Half {
      close() {}
    }
    expect(agentProblem(shapeOf(new Half()))).toBe('returned an object with no respond (it has close)');
  });
});
