// `--agent predictions` (docs/agents.md#predictions): the file is checked before the run, with one
// message naming it (and the line) and what to pass; each instance's reply is its model_patch, and an
// instance without a prediction submits none.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import createPredictionsAgent, { checkPredictionsOptions, patchOf } from '../../../src/agents/predictions.ts';
import type { AgentContext } from '../../../src/agents/types.ts';
import { tempDir } from '../../support/cli.ts';

const refusal = (options: Record<string, unknown>, cwd = tempDir(), ids = ['a', 'b', 'c']) => {
  try {
    checkPredictionsOptions(options, cwd, ids);
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

  it('refuses a prediction of an instance the dataset lacks, naming its id and line (the first, and how many more)', () => {
    const dir = tempDir();
    const line = (id: string) => JSON.stringify({ instance_id: id, model_patch: 'x' });
    writeFileSync(join(dir, 'p.jsonl'), [line('a'), line('zz-1'), line('b'), line('zz-2')].join('\n'));
    expect(refusal({ file: 'p.jsonl' }, dir, ['a', 'b'])).toEqual({
      kind: 'usage',
      message: expect.stringMatching(/p\.jsonl:2: instance_id "zz-1" is not in the dataset \(and 1 more\)/),
    });
    expect(refusal({ file: 'p.jsonl' }, dir, ['a', 'b', 'zz-1', 'zz-2'])).toBeNull();
    writeFileSync(join(dir, 'm.json'), JSON.stringify({ zz: { instance_id: 'zz', model_patch: 'x' } }));
    expect(refusal({ file: 'm.json' }, dir, ['a'])?.message).toMatch(
      /m\.json: key "zz": instance_id "zz" is not in the dataset:/,
    );
  });

  it("replies with the instance's model_patch (relative to the run's folder), empty when null; none without a prediction", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'preds.json'),
      JSON.stringify({ a: { instance_id: 'a', model_patch: 'diff A' }, b: { instance_id: 'b', model_patch: null } }),
    );
    const options: Record<string, unknown> = { file: 'preds.json' };
    checkPredictionsOptions(options, dir, ['a', 'b', 'c']);
    expect(options.file).toBe(join(dir, 'preds.json'));
    const reply = (id: string) =>
      createPredictionsAgent({ sample: { id }, options } as unknown as AgentContext).respond('');
    expect(await reply('a')).toMatchObject({ content: 'diff A', done: true });
    const submitted = async (id: string) => {
      const r = await reply(id);
      return typeof r === 'string' ? r : patchOf({ replies: [r.content], state: r.state });
    };
    expect(await submitted('a')).toBe('diff A');
    expect(await submitted('b')).toBe('');
    expect(await submitted('c')).toBeNull();
  });
});
