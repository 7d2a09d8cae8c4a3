// The configuration keys the formats bring, for config/schema.ts to compose (docs/configuration.md):
// the values `[dataset] format` takes (formats/index.ts's rows readers; a unit test holds them equal)
// and each format's own table. Zod schemas only: no format's code loads with the configuration.
import { SWEBENCH_TABLE } from './swebench/config-keys.ts';

export const DATASET_FORMATS = ['swebench'] as const;

/** Each format's own top-level table, by its key. */
export const FORMAT_TABLES = { swebench: SWEBENCH_TABLE };
