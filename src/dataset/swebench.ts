// `[dataset] format = "swebench"` (docs/swebench.md#the-format): each row read as a SWE-bench
// instance (src/swebench/sample.ts), refused at load naming its file:line when it is not one.
import { BenchrigError } from '../errors.ts';
import type { Sample } from '../types.ts';
import { imageRefProblem } from '../sandbox/image-ref.ts';
import { swebenchSample, type SwebenchOptions } from '../swebench/sample.ts';
import type { RawRow } from './rows.ts';

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
