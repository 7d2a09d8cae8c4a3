// What an agent other than `oracle` may see of a sample (SPEC §4): id, input and metadata only.
// Built by picking fields, never by deleting them, so a new ground-truth field cannot leak.
import type { PublicSample, Sample } from '../types.ts';

export function publicSample(sample: Sample): PublicSample {
  return { id: sample.id, input: sample.input, metadata: structuredClone(sample.metadata ?? {}) };
}
