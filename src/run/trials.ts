// Expands samples × trials into the trial list with stable, file-safe, unique task ids.
//
// Lazily: a TrialPlan keeps one file-safe name per sample and makes each trial's input when the
// scheduler takes it (a streamed dataset's sample is read then too), so that the main thread never
// holds every trial's input at once.
import { createHash } from 'node:crypto';
import type { Samples } from '../benchmark/types.ts';
import { inputHash } from '../benchmark/version.ts';
import type { Sample } from '../types.ts';
import type { TrialInput } from '../trial/types.ts';
import { safeName } from './run-dir.ts';

/** The ids of samples without reading them, when the dataset is streamed (dataset/lazy.ts). */
const idsOf = (samples: Samples): Iterable<string> => samples.ids ?? [...samples].map((s) => s.id);

/** The trials of a run in order: samples × trials, made one at a time. */
export class TrialPlan implements Iterable<TrialInput> {
  readonly length: number;
  /** Each sample's file-safe name, in order. */
  readonly #bases: string[] = [];

  constructor(
    private readonly samples: Samples,
    readonly trials: number,
  ) {
    const used = new Set<string>();
    for (const id of idsOf(samples)) {
      let base = safeName(id);
      // Two ids that differ only in unsafe characters must not share a result file.
      for (let i = 2; used.has(base.toLowerCase()); i++) base = `${safeName(id)}~${i}`;
      used.add(base.toLowerCase());
      this.#bases.push(base);
    }
    this.length = this.#bases.length * trials;
  }

  *[Symbol.iterator](): Iterator<TrialInput> {
    const many = this.trials > 1;
    let i = 0;
    for (const sample of this.samples) {
      const base = this.#bases[i++];
      const hash = inputHash(sample);
      for (let k = 1; k <= this.trials; k++)
        yield { taskId: many ? `${base}-t${k}` : base, trial: k, sample, inputHash: hash };
    }
  }

  *taskIds(): Iterable<string> {
    for (const base of this.#bases)
      if (this.trials > 1) for (let k = 1; k <= this.trials; k++) yield `${base}-t${k}`;
      else yield base;
  }
}

export function expandTrials(samples: Sample[], trials: number): TrialInput[] {
  return [...new TrialPlan(samples, trials)];
}

/** hashOf(every task id as one array) (resume.ts), without the array: the same bytes hashed piece by piece. */
export function taskIdsHash(plan: TrialPlan): string {
  const h = createHash('sha256').update('[');
  let first = true;
  for (const id of plan.taskIds()) {
    h.update(first ? JSON.stringify(id) : `,${JSON.stringify(id)}`);
    first = false;
  }
  return h.update(']').digest('hex').slice(0, 16);
}
