// The trial plan is made lazily (issue 17); what a run sees of it must not change: the same task
// ids in the same order, and the same task_ids_hash, so that --resume of an older run still matches.
import { describe, expect, it } from 'vitest';
import { hashOf } from '../../../src/run/resume.ts';
import { TrialPlan, expandTrials, taskIdsHash } from '../../../src/run/trials.ts';
import type { Sample } from '../../../src/types.ts';

const samples = ['a', 'b/c', 'b?c', 'd'].map((id) => ({ id, input: `in ${id}` }) as unknown as Sample);

describe('TrialPlan', () => {
  it('yields samples × trials in order, with unique file-safe ids, and knows its length', () => {
    const plan = new TrialPlan(samples, 2);
    const all = [...plan];
    expect(plan.length).toBe(8);
    expect(all.map((t) => t.taskId)).toEqual([
      'a-t1',
      'a-t2',
      'b_c-t1',
      'b_c-t2',
      'b_c~2-t1',
      'b_c~2-t2',
      'd-t1',
      'd-t2',
    ]);
    expect(all.map((t) => t.trial)).toEqual([1, 2, 1, 2, 1, 2, 1, 2]);
    expect(all[3].sample).toBe(samples[1]);
    expect(new Set(all.map((t) => t.inputHash)).size).toBe(4);
    expect([...plan.taskIds()]).toEqual(all.map((t) => t.taskId));
    expect([...new TrialPlan(samples, 1)].map((t) => t.taskId)).toEqual(['a', 'b_c', 'b_c~2', 'd']);
  });

  it('hashes its task ids exactly as hashOf the array of them', () => {
    for (const n of [1, 3]) {
      const ids = expandTrials(samples, n).map((t) => t.taskId);
      expect(taskIdsHash(new TrialPlan(samples, n))).toBe(hashOf(ids));
    }
    expect(taskIdsHash(new TrialPlan(samples, 2))).not.toBe(taskIdsHash(new TrialPlan(samples, 3)));
  });
});
