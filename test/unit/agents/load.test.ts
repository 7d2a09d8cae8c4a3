// What a trial knows of an agent comes from where it is registered (src/agents/load.ts), never from its name.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { agentTraits, baselineAgent, checkAgentOptions, loadAgent } from '../../../src/agents/load.ts';
import { tempDir } from '../../support/cli.ts';

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

// What run/ asks of an agent before anything runs (agents/load.ts agentTraits), one capability at a time.
describe('agentTraits', () => {
  const traits = (name: string, module?: string, options: Record<string, unknown> = {}, modelSet = false) =>
    agentTraits(module ? { name, module } : { name }, options, modelSet);

  it("says which agents use the run's model client, so that its endpoint is checked at load", () => {
    expect(traits('react').modelApis).toEqual(['chat']);
    for (const name of ['oracle', 'nop', 'http', 'predictions', 'replay']) expect(traits(name).modelApis).toEqual([]);
    // An installed agent calls its preset's wire API through the gateway.
    expect(traits('cli:claude-code').modelApis).toEqual(['messages']);
    expect(traits('cli:codex').modelApis).toEqual(['responses']);
    // A module may use ctx.llm: checked whenever the run set a model, whatever its name.
    expect(traits('react', ECHO).modelApis).toEqual([]);
    expect(traits('nop', ECHO, {}, true).modelApis).toEqual(['chat']);
  });

  it('says which built-ins are the baselines, and a module never is one', () => {
    expect(traits('oracle').baseline).toBe('reference');
    expect(traits('nop').baseline).toBe('empty');
    for (const name of ['react', 'http', 'predictions', 'replay', 'cli:codex'])
      expect(traits(name).baseline).toBeNull();
    expect(traits('nop', ECHO).baseline).toBeNull();
    expect(baselineAgent('reference')).toBe('oracle');
    expect(baselineAgent('empty')).toBe('nop');
  });

  it('says which agents are installed in the sandbox', () => {
    expect(traits('cli:codex').installed).toBe(true);
    expect(traits('cli', undefined, { preset: 'codex' }).installed).toBe(true);
    for (const name of ['oracle', 'nop', 'react', 'http', 'predictions', 'replay'])
      expect(traits(name).installed).toBe(false);
    expect(traits('cli:codex.ts', ECHO).installed).toBe(false);
  });
});

describe('checkAgentOptions', () => {
  it("runs a built-in's own check of its options (predictions reads its file), and none for a module", async () => {
    const at = { cwd: tempDir(), datasetIds: ['a'] };
    await expect(checkAgentOptions({ name: 'predictions' }, {}, at)).rejects.toMatchObject({
      kind: 'usage',
      message: expect.stringContaining('--agent-opt file='),
    });
    const dir = tempDir();
    writeFileSync(join(dir, 'p.jsonl'), JSON.stringify({ instance_id: 'a', model_patch: 'x' }) + '\n');
    const options: Record<string, unknown> = { file: 'p.jsonl' };
    await checkAgentOptions({ name: 'predictions' }, options, { cwd: dir, datasetIds: ['a'] });
    expect(options.file).toBe(join(dir, 'p.jsonl')); // made absolute for the workers
    // A module called predictions is the user's: its options are its own business.
    await expect(checkAgentOptions({ name: 'predictions', module: ECHO }, {}, at)).resolves.toBeUndefined();
    await expect(checkAgentOptions({ name: 'react' }, {}, at)).resolves.toBeUndefined();
  });
});
