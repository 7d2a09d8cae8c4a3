// The model names the table of prices does not know, remembered across processes in the module cache
// (loader/compile.mjs `cacheDir`), per version of the table: a worker whose model the table does not
// know (a local or scripted model) never loads it. Loading it costs each thread ~5 MB resident (its
// data as a module, and the ICU collator its first lines sort with), measured on 0.1.8 in
// docs/performance.md. A name is added once the table was asked and knew it under no lookup.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cacheDir } from '../loader/compile.mjs';
import { PRICE_TABLE } from './price-table.ts';

/** Bumped when prices.ts looks a name up differently: a name it did not find may be found now. */
const LOOKUP_FORMAT = 1;
/** Names kept in the file, the newest: upstreams name their models, and a name is a line of text. */
const MAX_NAMES = 1000;
const MAX_NAME_LENGTH = 200;

export interface PriceMisses {
  has(name: string): boolean;
  add(name: string): void;
}

/** The table's file, for its version, size and time: a table changed in place is another table. */
const TABLE_FILE = createRequire(import.meta.url).resolve('@pydantic/genai-prices');

/** The file of names for this table and lookup; undefined when there is no module cache to keep it in. */
function missesFile(): string | undefined {
  try {
    const s = statSync(TABLE_FILE);
    const key = createHash('sha256')
      .update(JSON.stringify([LOOKUP_FORMAT, PRICE_TABLE.version, TABLE_FILE, s.size, s.mtimeMs]))
      .digest('hex')
      .slice(0, 16);
    return join(cacheDir(), 'prices', `unknown-${key}.json`);
  } catch {
    return undefined;
  }
}

function read(file: string | undefined): string[] {
  if (!file) return [];
  try {
    const names: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [];
  } catch {
    return []; // none yet, or unreadable: the table is asked
  }
}

/** The names of this process's table, read once; `add` writes the file again (atomically: temp file, rename). */
export function priceMisses(): PriceMisses {
  const file = missesFile();
  const known = new Set(read(file));
  return {
    has: (name) => known.has(name),
    add(name) {
      if (!file || known.has(name) || name.length > MAX_NAME_LENGTH) return;
      known.add(name);
      // Another process's names since this one read them are kept: read again, then appended.
      const names = [...new Set([...read(file), name])].slice(-MAX_NAMES);
      const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      try {
        mkdirSync(join(file, '..'), { recursive: true });
        writeFileSync(tmp, JSON.stringify(names));
        renameSync(tmp, file);
      } catch {
        rmSync(tmp, { force: true }); // not kept: the next process asks the table again
      }
    },
  };
}
