// JSON reader: a top-level array of row objects, or an object holding one under `rows` or `data`.
// There are no useful line numbers in a JSON document, so rows are named by index: `file[3]`.
import { readFile } from 'node:fs/promises';
import { BenchrigError } from '../errors.ts';
import { isPlainObject } from '../config/expand.ts';
import { kindOf } from './jsonl.ts';
import type { RawRow, ReadOptions } from './rows.ts';

export async function readJson(file: string, opts: ReadOptions): Promise<RawRow[]> {
  const text = await readFile(file, 'utf8');
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new BenchrigError('dataset', `${opts.label}: invalid JSON (${(err as Error).message})`);
  }
  let list: unknown[] | undefined;
  let prefix = '';
  if (Array.isArray(doc)) list = doc;
  else if (isPlainObject(doc)) {
    for (const key of ['rows', 'data']) {
      if (Array.isArray(doc[key])) {
        list = doc[key] as unknown[];
        prefix = `.${key}`;
        break;
      }
    }
  }
  if (!list) {
    throw new BenchrigError(
      'dataset',
      `${opts.label}: expected a top-level array of rows, or an object with a "rows" or "data" array`,
    );
  }
  return list.map((value, i) => {
    const where = `${opts.label}${prefix}[${i}]`;
    if (!isPlainObject(value))
      throw new BenchrigError('dataset', `${where}: row ${i} must be a JSON object, got ${kindOf(value)}`);
    return { row: value, where };
  });
}
