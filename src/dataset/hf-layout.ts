// Which files of a hub dataset repository hold one config's split (docs/benchmarks.md#hugging-face-datasets). Pure: a list of
// repository paths in, the split's data files out, so it is tested over many layouts without a hub.
// The conventions follow the hub's own (the `datasets` library's defaults and the parquet
// conversion on `refs/convert/parquet`); the first layout that has files for the config wins,
// as on the hub, so a repository never mixes two layouts into one split.
import { BenchrigError } from '../errors.ts';

const DATA_EXTENSIONS = ['parquet', 'jsonl', 'ndjson', 'json', 'csv'] as const;
const EXT = `(?:${DATA_EXTENSIONS.join('|')})`;
/** Split names are word characters starting with a letter (the hub's rule); lazy, so `train_0` is "train". */
const NAME = '[A-Za-z]\\w*?';
/** What may follow a split name in a file name: a shard or part number (`-00000-of-00002`, `_0`, `.1`). */
const SHARD = '(?:[-_. ]\\d[^/]*)?';

/** File names that name a split only when they use one of these words (e.g. `dev.jsonl` is "validation"). */
const KEYWORDS: Record<string, string[]> = {
  train: ['train', 'training'],
  validation: ['validation', 'valid', 'dev', 'val'],
  test: ['test', 'testing', 'eval', 'evaluation'],
};

interface Layout {
  name: string;
  /** Only for the default config (no config folder). */
  defaultOnly?: boolean;
  /** Only keyword split names count (root files: `tasks.jsonl` is not a split called "tasks"). */
  keywordsOnly?: boolean;
  /** A regex source with `{config}` for the config and `{split}` for a split-name group. */
  pattern: string;
}

const LAYOUTS: Layout[] = [
  // The hub's parquet conversion: <config>/<split>/0000.parquet (partial-<split> for big datasets),
  // and a config folder holding split folders in any format.
  { name: 'config/split folder', pattern: `^{config}/(?:partial-)?{split}/(?:[^/]+/)*[^/]+\\.${EXT}$` },
  // <config>/<split>-00000-of-00002.parquet, <config>/<split>.jsonl
  { name: 'config folder', pattern: `^{config}/{split}${SHARD}\\.${EXT}$` },
  // The older conversion: <config>/<dataset>-<split>.parquet (sharded: -00000-of-00002).
  { name: 'older parquet conversion', pattern: `^{config}/[^/]+-{split}(?:-\\d{5}-of-\\d{5})?\\.parquet$` },
  // data/train-00000-of-00002.parquet, data/test.jsonl, data/train/part-0.parquet
  { name: 'data folder', defaultOnly: true, pattern: `^data/{split}${SHARD}\\.${EXT}$` },
  { name: 'data/split folder', defaultOnly: true, pattern: `^data/{split}/(?:[^/]+/)*[^/]+\\.${EXT}$` },
  // train.csv, test-00000-of-00001.jsonl, train/part-0.jsonl at the root
  { name: 'root files', defaultOnly: true, keywordsOnly: true, pattern: `^{split}${SHARD}\\.${EXT}$` },
  { name: 'root split folders', defaultOnly: true, keywordsOnly: true, pattern: `^{split}/(?:[^/]+/)*[^/]+\\.${EXT}$` },
];

interface SplitFiles {
  /** The split's data files, sorted (shards in order). */
  files: string[];
  /** Which convention matched, for messages. */
  layout: string;
}

interface PickOptions {
  config: string;
  split: string;
  /** Names the dataset in errors, e.g. `hf:acme/tiny@1a2b3c4`. */
  label: string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const isData = (p: string) => new RegExp(`\\.${EXT}$`, 'i').test(p) && !p.split('/').some((seg) => seg.startsWith('.'));

function regexFor(layout: Layout, config: string, split: string | null): RegExp {
  const names =
    split === null ? (layout.keywordsOnly ? Object.values(KEYWORDS).flat() : [NAME]) : namesFor(split).map(escape);
  const source = layout.pattern
    .replace('{config}', () => escape(config))
    .replace('{split}', () => `(${names.join('|')})`);
  return new RegExp(source, 'i');
}

/** The file-name spellings of a split: itself, plus the hub's synonyms for train/validation/test. */
function namesFor(split: string): string[] {
  return [...new Set([split, ...(KEYWORDS[split.toLowerCase()] ?? [])])];
}

/** The canonical split name of a spelling found in a path (`dev` -> `validation`). */
function canonical(name: string): string {
  const lower = name.toLowerCase();
  return Object.entries(KEYWORDS).find(([, words]) => words.includes(lower))?.[0] ?? name;
}

/** The split names present for a config under its first matching layout. */
export function splitsIn(paths: string[], config: string): string[] {
  const data = paths.filter(isData);
  for (const layout of LAYOUTS) {
    if (layout.defaultOnly && config !== 'default') continue;
    const re = regexFor(layout, config, null);
    const found = data.map((p) => re.exec(p)?.[1]).filter((s): s is string => s !== undefined);
    if (found.length) return [...new Set(found.map(canonical))].sort();
  }
  return [];
}

/** Config folders that hold data files (for "config not found" messages). */
function configsIn(paths: string[]): string[] {
  const found = new Set<string>();
  for (const p of paths.filter(isData)) {
    const top = p.split('/')[0];
    if (p.includes('/') && top !== 'data' && splitsIn(paths, top).length) found.add(top);
  }
  return [...found].sort();
}

export function pickSplitFiles(paths: string[], opts: PickOptions): SplitFiles {
  const { config, split, label } = opts;
  const data = paths.filter(isData).sort();
  for (const layout of LAYOUTS) {
    if (layout.defaultOnly && config !== 'default') continue;
    const any = regexFor(layout, config, null);
    if (!data.some((p) => any.test(p))) continue;
    const mine = regexFor(layout, config, split);
    const files = data.filter((p) => mine.test(p));
    if (files.length) return { files, layout: layout.name };
    const splits = splitsIn(data, config);
    throw new BenchrigError(
      'dataset',
      `${label}: no split "${split}" for config "${config}" (splits found: ${splits.join(', ')})`,
    );
  }
  const configs = configsIn(data);
  // A repository of data files that name no split (and no config folders) is one "train" split, as on the hub.
  if (config === 'default' && data.length && !configs.length) {
    if (split === 'train') return { files: data, layout: 'single split' };
    throw new BenchrigError(
      'dataset',
      `${label}: no split "${split}": the repository's data files name no split, so they are all "train" (splits found: train)`,
    );
  }
  if (!data.length) {
    throw new BenchrigError(
      'dataset',
      `${label}: no data files (${DATA_EXTENSIONS.map((e) => `.${e}`).join(' ')}) in the repository at this revision`,
    );
  }
  throw new BenchrigError(
    'dataset',
    `${label}: no data files for config "${config}" (configs found: ${configs.join(', ') || 'none'})`,
  );
}
