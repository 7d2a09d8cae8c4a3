// Dataset sources -> raw rows. One reader per format, chosen by file extension; a new format plugs in
// as one more entry in READERS. `hf:owner/name` sources are downloaded (hf.ts) and then read by the
// same readers. hf.ts (@huggingface/hub, large) and parquet.ts (hyparquet) load only when a source
// needs them: most runs read a local JSONL file.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { BenchrigError } from '../errors.ts';
import { displayPath } from '../config/load.ts';
import { readJsonl } from './jsonl.ts';
import { readJson } from './json.ts';
import type { HfOptions } from './hf.ts';
import type { RawRow, Reader } from './rows.ts';

export const READERS: Record<string, Reader> = {
  '.jsonl': readJsonl,
  '.ndjson': readJsonl,
  '.json': readJson,
  // csv-parse only for a CSV dataset: every run's main thread imports this module.
  '.csv': async (file, opts) => (await import('./csv.ts')).readCsv(file, opts),
  '.parquet': async (file, opts) => (await import('./parquet.ts')).readParquet(file, opts),
};

interface ReadDatasetOptions extends HfOptions {
  /** The benchmark folder: a relative `source` resolves against it. */
  baseDir: string;
  jsonColumns?: ReadonlySet<string>;
  /** Names the key in errors, e.g. `benchmarks/x/benchmark.toml: key dataset.source`. */
  key?: string;
}

/** The `[dataset]` table: `split`, `config` and `revision` apply to `hf:` sources only. */
interface DatasetSpec {
  source: string;
  split?: string;
  config?: string;
  revision?: string;
}

interface DatasetRead {
  rows: RawRow[];
  /** The commit an `hf:` revision resolved to; null for local files. */
  resolvedRevision: string | null;
}

export async function openDataset(spec: DatasetSpec, opts: ReadDatasetOptions): Promise<DatasetRead> {
  if (!spec.source.startsWith('hf:')) return { rows: await readDataset(spec.source, opts), resolvedRevision: null };
  const key = opts.key ?? 'dataset.source';
  try {
    const { fetchHfDataset, parseHfSource } = await import('./hf.ts');
    const repo = parseHfSource(spec.source);
    const hfSpec = {
      repo,
      split: spec.split ?? 'train',
      config: spec.config ?? 'default',
      revision: spec.revision ?? 'main',
    };
    const { commit, files } = await fetchHfDataset(hfSpec, opts);
    const rows: RawRow[] = [];
    for (const f of files) {
      const ext = path.extname(f.path).toLowerCase();
      const readOpts = { label: `hf:${repo}/${f.path}`, jsonColumns: opts.jsonColumns };
      // The hub's .json data files are often JSON Lines; the hub reads both, so do we.
      const read =
        ext === '.json'
          ? readJson(f.localPath, readOpts).catch(() => readJsonl(f.localPath, readOpts))
          : READERS[ext](f.localPath, readOpts);
      for (const r of await read) rows.push(r);
    }
    return { rows, resolvedRevision: commit };
  } catch (err) {
    if (err instanceof BenchrigError && err.kind === 'dataset')
      throw new BenchrigError('dataset', `${key}: ${err.message}`);
    throw err;
  }
}

/** The rows of a local file (or an `hf:` source at its defaults). */
export async function readDataset(source: string, opts: ReadDatasetOptions): Promise<RawRow[]> {
  const key = opts.key ?? 'dataset.source';
  if (source.startsWith('hf:')) return (await openDataset({ source }, opts)).rows;
  const file = path.resolve(opts.baseDir, source);
  const label = displayPath(file);
  const ext = path.extname(file).toLowerCase();
  const reader = READERS[ext];
  if (!reader) {
    throw new BenchrigError(
      'dataset',
      `${key}: ${label}: unknown dataset format "${ext || '(no extension)'}" (known: ${Object.keys(READERS).join(', ')})`,
    );
  }
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new BenchrigError('dataset', `${key}: ${label}: dataset file not found`);
  return reader(file, { label, jsonColumns: opts.jsonColumns });
}
