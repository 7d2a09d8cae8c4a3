// A plain dataset (docs/benchmarks.md#sample-fields): rows of JSON Lines, JSON, CSV, Parquet or a Hugging
// Face dataset, each mapped to a sample by `[dataset.fields]` (dataset/map.ts); what a benchmark.toml
// without `[dataset] format` reads.
import { mapRows } from '../../dataset/map.ts';
import type { Format } from '../types.ts';

export const plainFormat = {
  title: 'plain dataset',
  rows: {
    map: (rows, { fields, config, baseDir }) => mapRows(rows, { fields, baseDir, noSandbox: !config.sandbox }),
  },
} satisfies Format;
