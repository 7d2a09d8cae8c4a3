// `--agent predictions` (docs/agents.md#predictions): the file is checked before the run, with one
// message naming it (and the line) and what to pass; each instance's reply is its model_patch.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import createPredictionsAgent, { checkPredictionsOptions } from '../../../src/agents/predictions.ts';
import type { AgentContext } from '../../../src/agents/types.ts';
import { tempDir } from '../../support/cli.ts';

const refusal = (options: Record<string, unknown>, cwd = tempDir()) => {
  try {
    checkPredictionsOptions(options, cwd);
    return null;
  } catch (err) {
    return { kind: (err as { kind?: string }).kind, message: (err as Error).message };
  }
};

describe('the predictions agent', () => {
  it('refuses a missing option, a missing file and a bad line as usage errors naming them', () => {
    expect(refusal({})).toMatchObject({ kind: 'usage', message: expect.stringContaining('--agent-opt file=') });
    expect(refusal({ file: 'nope.jsonl' })?.message).toMatch(/cannot read .*nope\.jsonl \(ENOENT\)/);
    const dir = tempDir();
    writeFileSync(join(dir, 'p.jsonl'), '{"instance_id": "a", "model_patch": "x"}\n[1]\n');
    expect(refusal({ file: 'p.jsonl' }, dir)?.message).toContain('p.jsonl:2: a prediction must be an object');
  });

  it("replies with the instance's model_patch (relative to the run's folder), empty when it has none", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'preds.json'),
      JSON.stringify({ a: { instance_id: 'a', model_patch: 'diff A' }, b: { instance_id: 'b', model_patch: null } }),
    );
    const options: Record<string, unknown> = { file: 'preds.json' };
    checkPredictionsOptions(options, dir);
    expect(options.file).toBe(join(dir, 'preds.json'));
    const reply = (id: string) =>
      createPredictionsAgent({ sample: { id }, options } as unknown as AgentContext).respond('');
    expect(await reply('a')).toMatchObject({ content: 'diff A', done: true });
    expect(await reply('b')).toMatchObject({ content: '' });
    expect(await reply('c')).toMatchObject({ content: '' });
  });
});
