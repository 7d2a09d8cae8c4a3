// Dataset sources -> raw rows. One reader per format, chosen by file extension; a new format
// (parquet, hf:) plugs in as one more entry in READERS.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { BenchrigError } from '../errors.ts';
import { displayPath } from '../config/load.ts';
import { readJsonl } from './jsonl.ts';
import { readJson } from './json.ts';
import { readCsv } from './csv.ts';

/** One dataset row before field mapping, and where it came from (`data/tasks.jsonl:7`). */
export interface RawRow {
  row: Record<string, unknown>;
  where: string;
}

export interface ReadOptions {
  /** How errors and `where` name the file. */
  label: string;
  /** Columns whose text cells hold JSON (CSV only: object/array sample fields). */
  jsonColumns?: ReadonlySet<string>;
}

export type Reader = (file: string, opts: ReadOptions) => Promise<RawRow[]>;

const notYet =
  (what: string): Reader =>
  async (_file, opts) => {
    throw new BenchrigError('dataset', `${opts.label}: ${what} datasets are not supported yet (use .jsonl, .json or .csv)`);
  };

export const READERS: Record<string, Reader> = {
  '.jsonl': readJsonl,
  '.ndjson': readJsonl,
  '.json': readJson,
  '.csv': readCsv,
  '.parquet': notYet('parquet'),
};

export interface ReadDatasetOptions {
  /** The benchmark folder: a relative `source` resolves against it. */
  baseDir: string;
  jsonColumns?: ReadonlySet<string>;
  /** Names the key in errors, e.g. `benchmarks/x/benchmark.toml: key dataset.source`. */
  key?: string;
}

export async function readDataset(source: string, opts: ReadDatasetOptions): Promise<RawRow[]> {
  const key = opts.key ?? 'dataset.source';
  if (source.startsWith('hf:')) {
    throw new BenchrigError('dataset', `${key}: Hugging Face datasets ("${source}") are not supported yet`);
  }
  const file = path.resolve(opts.baseDir, source);
  const label = displayPath(file);
  const ext = path.extname(file).toLowerCase();
  const reader = READERS[ext];
  if (!reader) {
    throw new BenchrigError('dataset', `${key}: ${label}: unknown dataset format "${ext || '(no extension)'}" (known: ${Object.keys(READERS).join(', ')})`);
  }
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new BenchrigError('dataset', `${key}: ${label}: dataset file not found`);
  return reader(file, { label, jsonColumns: opts.jsonColumns });
}
