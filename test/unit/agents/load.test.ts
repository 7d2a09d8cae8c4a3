// What a trial knows of an agent comes from where it is registered (src/agents/load.ts), never from its name.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadAgent } from '../../../src/agents/load.ts';

const ECHO = fileURLToPath(new URL('../../fixtures/agents/echo.ts', import.meta.url));

describe('loadAgent', () => {
  it('declares the context and whether the agent records its own tool calls', async () => {
    const traits = async (agent: { name: string; module?: string }) => {
      const { context, recordsOwnToolCalls, factory } = await loadAgent(agent);
      expect(typeof factory).toBe('function');
      return { context, recordsOwnToolCalls };
    };
    expect(await traits({ name: 'oracle' })).toEqual({ context: 'trusted', recordsOwnToolCalls: false });
    expect(await traits({ name: 'react' })).toEqual({ context: 'public', recordsOwnToolCalls: true });
    expect(await traits({ name: 'nop' })).toEqual({ context: 'public', recordsOwnToolCalls: false });
    expect(await traits({ name: 'cli:codex' })).toEqual({ context: 'installed', recordsOwnToolCalls: true });
    // A module is a public agent whatever it is called: only built-ins see more.
    expect(await traits({ name: 'oracle', module: ECHO })).toEqual({ context: 'public', recordsOwnToolCalls: false });
  });

  it('refuses a module without a factory', async () => {
    await expect(loadAgent({ name: 'missing' })).rejects.toThrow(/must default-export a factory or export createAgent/);
  });
});
