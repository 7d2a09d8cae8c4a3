// What an agent other than `oracle` may see of a sample (docs/benchmarks.md#sample-fields): id, input and metadata only.
// Built by picking fields, never by deleting them, so a new ground-truth field cannot leak.
import type { PublicSample, Sample } from '../types.ts';

/** Metadata the grading reads: telling an agent which samples are benign look-alikes would let it game a red-team suite. */
const GRADING_METADATA = new Set(['benign']);

export function publicSample(sample: Sample): PublicSample {
  const metadata = Object.fromEntries(Object.entries(sample.metadata ?? {}).filter(([k]) => !GRADING_METADATA.has(k)));
  return { id: sample.id, input: sample.input, metadata: structuredClone(metadata) };
}
