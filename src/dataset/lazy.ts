// A JSON Lines dataset read as a stream: the load reads it once, row by row, and keeps of each row only
// its id and where its line lies; a sample is read again from the file (and mapped again, by the same
// function) when the run takes it, so that a large dataset is not held in memory as objects. The file
// must not change under the run.
import { closeSync, fstatSync, openSync, statSync } from 'node:fs';
import { BenchrigError } from '../errors.ts';
import type { Sample } from '../types.ts';
import { jsonlLines, jsonlRowAt } from './jsonl.ts';
import type { RawRow } from './rows.ts';

/** Where each row's line lies: offsets and lengths in bytes, 1-based line numbers. */
interface LineIndex {
  offsets: Float64Array;
  lengths: Uint32Array;
  lines: Uint32Array;
}

/** A growable column of numbers (typed arrays cost 4–8 bytes a row; a JS array of them far more). */
class Column<T extends Float64Array | Uint32Array> {
  n = 0;
  constructor(
    public data: T,
    private readonly make: (n: number) => T,
  ) {}
  push(v: number): void {
    if (this.n === this.data.length) {
      const bigger = this.make(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.n++] = v;
  }
  done(): T {
    return this.data.subarray(0, this.n) as T;
  }
}

export class LazyJsonlSamples implements Iterable<Sample> {
  private constructor(
    private readonly file: string,
    private readonly label: string,
    private readonly index: LineIndex,
    /** Rows of the index, in run order (a subset after --sample, --shuffle, --limit). */
    private readonly order: Uint32Array | null,
    /** The ids of those rows, in that order. */
    readonly ids: readonly string[],
    private readonly make: (raw: RawRow) => Sample,
    private readonly stamp: string,
  ) {}

  /**
   * Reads `file` once, each row mapped and checked by `map` (made without its duplicate check, which
   * is made here on the ids kept, the only part of a sample that is); `again` maps a row read back.
   */
  static scan(
    file: string,
    label: string,
    map: (raw: RawRow) => Sample,
    again: (raw: RawRow) => Sample,
  ): LazyJsonlSamples {
    const stamp = stampOf(file);
    const offsets = new Column(new Float64Array(1024), (n) => new Float64Array(n));
    const lengths = new Column(new Uint32Array(1024), (n) => new Uint32Array(n));
    const lines = new Column(new Uint32Array(1024), (n) => new Uint32Array(n));
    const ids: string[] = [];
    const seen = new Set<string>();
    for (const l of jsonlLines(file, { label })) {
      const id = map(l).id;
      if (seen.has(id)) {
        const first = `${label}:${lines.data[ids.indexOf(id)]}`;
        throw new BenchrigError('dataset', `duplicate sample id "${id}": ${first} and ${l.where}`);
      }
      seen.add(id);
      ids.push(id);
      offsets.push(l.offset);
      lengths.push(l.length);
      lines.push(l.line);
    }
    const index = { offsets: offsets.done(), lengths: lengths.done(), lines: lines.done() };
    return new LazyJsonlSamples(file, label, index, null, ids, again, stamp);
  }

  get length(): number {
    return this.ids.length;
  }

  /** The same rows in another order, or some of them: positions into this one's order. */
  select(positions: readonly number[]): LazyJsonlSamples {
    const order = Uint32Array.from(positions, (p) => this.row(p));
    const ids = positions.map((p) => this.ids[p]);
    return new LazyJsonlSamples(this.file, this.label, this.index, order, ids, this.make, this.stamp);
  }

  at(i: number): Sample | undefined {
    if (i < 0 || i >= this.length) return undefined;
    const fd = this.open();
    try {
      return this.read(fd, i);
    } finally {
      closeSync(fd);
    }
  }

  *[Symbol.iterator](): Iterator<Sample> {
    const fd = this.open();
    try {
      for (let i = 0; i < this.length; i++) yield this.read(fd, i);
    } finally {
      closeSync(fd);
    }
  }

  private row(i: number): number {
    return this.order ? this.order[i] : i;
  }

  private read(fd: number, i: number): Sample {
    const r = this.row(i);
    // one fstat a row: a file written over since the load is refused, not read as other samples
    if (stampOf(fd) !== this.stamp) throw this.changed();
    const where = `${this.label}:${this.index.lines[r]}`;
    const sample = this.make({ row: jsonlRowAt(fd, this.index.offsets[r], this.index.lengths[r], where), where });
    if (sample.id !== this.ids[i]) throw this.changed();
    return sample;
  }

  private changed(): BenchrigError {
    return new BenchrigError(
      'dataset',
      `${this.label}: the dataset changed while the run was reading it (run it again)`,
    );
  }

  private open(): number {
    return openSync(this.file, 'r');
  }
}

/** Size, modification time and inode of a file (by path or open descriptor). */
function stampOf(file: string | number): string {
  const s = typeof file === 'number' ? fstatSync(file) : statSync(file);
  return `${s.size}:${s.mtimeMs}:${s.ino}`;
}
