// Expands samples × trials into the trial list with stable, file-safe, unique task ids.
import { inputHash } from '../benchmark/version.ts';
import type { Sample } from '../types.ts';
import type { TrialInput } from '../trial/types.ts';
import { safeName } from './run-dir.ts';

export function expandTrials(samples: Sample[], trials: number): TrialInput[] {
  const used = new Set<string>();
  const out: TrialInput[] = [];
  for (const sample of samples) {
    let base = safeName(sample.id);
    // Two ids that differ only in unsafe characters must not share a result file.
    for (let i = 2; used.has(base.toLowerCase()); i++) base = `${safeName(sample.id)}~${i}`;
    used.add(base.toLowerCase());
    const hash = inputHash(sample);
    for (let k = 1; k <= trials; k++)
      out.push({ taskId: trials > 1 ? `${base}-t${k}` : base, trial: k, sample, inputHash: hash });
  }
  return out;
}
