// The shapes every dataset reader shares. They live apart from read.ts (which picks a reader by
// extension) so that the readers need not import the module that imports them: no import circle.

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
