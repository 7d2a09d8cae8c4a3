// `[dataset] format = "swebench"` (docs/swebench.md#the-format): each row read as a SWE-bench
// instance (src/swebench/sample.ts), refused at load naming its file:line when it is not one.
import { isPlainObject } from '../../config/expand.ts';
import { fileLayer, type Layer } from '../../config/layers.ts';
import { BenchrigError } from '../../errors.ts';
import type { Sample } from '../../types.ts';
import { imageRefProblem } from '../../sandbox/image-ref.ts';
import { OFFICIAL_IMAGE_TEMPLATE } from './image.ts';
import { swebenchSample, type SwebenchOptions } from './sample.ts';
import type { RawRow } from '../../dataset/rows.ts';

export function mapSwebenchRows(rows: RawRow[], opts: SwebenchOptions): Sample[] {
  const seen = new Map<string, string>();
  return rows.map(({ row, where }) => {
    const sample = swebenchSample(row, opts);
    if (typeof sample === 'string') throw new BenchrigError('dataset', `${where}: SWE-bench row ${sample}`);
    const first = seen.get(sample.id);
    if (first) throw new BenchrigError('dataset', `duplicate instance_id "${sample.id}": ${first} and ${where}`);
    seen.set(sample.id, where);
    const image = sample.sandbox?.image;
    const problem = image === undefined ? null : imageRefProblem(image);
    if (problem) throw new BenchrigError('dataset', `${where}: SWE-bench row column image ${problem}`);
    return sample;
  });
}

/**
 * What a SWE-bench benchmark need not set (docs/swebench.md#images): `[sandbox]` with the official
 * image template, so that rows bringing their own `image` need no `[sandbox]` at all, and rows
 * without one run in the official image, as in the official harness. A `[sandbox] build` without
 * an image gets none (its image stays a required key).
 */
export function swebenchDefaults(merged: Record<string, unknown>): Layer | null {
  if (!isPlainObject(merged.dataset) || merged.dataset.format !== 'swebench') return null;
  if (isPlainObject(merged.sandbox) && merged.sandbox.build !== undefined) return null;
  return fileLayer('[dataset] format = "swebench" (its default)', { sandbox: { image: OFFICIAL_IMAGE_TEMPLATE } });
}
