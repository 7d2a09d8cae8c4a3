// JSON Lines reader: one JSON object per line; blank lines are skipped; errors name file:line.
// `jsonlLines` reads the file a chunk at a time and yields each row with where its line lies in the
// file, so that a large dataset is never held whole (lazy.ts reads a row again by its place).
import { closeSync, openSync, readSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { BenchrigError } from '../errors.ts';
import { isPlainObject } from '../config/expand.ts';
import type { RawRow, ReadOptions } from './rows.ts';

export async function readJsonl(file: string, opts: ReadOptions): Promise<RawRow[]> {
  const text = await readFile(file, 'utf8');
  const rows: RawRow[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    const where = `${opts.label}:${i + 1}`;
    rows.push({ row: parseJsonlRow(line, where), where });
  });
  return rows;
}

/** One line's row, refused naming `where` when it is not a JSON object. */
function parseJsonlRow(line: string, where: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    throw new BenchrigError('dataset', `${where}: invalid JSON (${(err as Error).message})`);
  }
  if (!isPlainObject(value))
    throw new BenchrigError('dataset', `${where}: a row must be a JSON object, got ${kindOf(value)}`);
  return value;
}

/** A row of a JSON Lines file and its line: 1-based number, byte offset and length (without the line break). */
interface JsonlLine extends RawRow {
  line: number;
  offset: number;
  length: number;
}

const CHUNK = 1 << 20;
const BOM = [0xef, 0xbb, 0xbf];

/** The rows of `file` in order, read `CHUNK` bytes at a time (the same rows and errors as readJsonl). */
export function* jsonlLines(file: string, opts: ReadOptions): Generator<JsonlLine> {
  const fd = openSync(file, 'r');
  try {
    let buf = Buffer.allocUnsafe(CHUNK);
    let start = 0; // of the current line, in buf
    let end = 0; // bytes in buf
    let base = 0; // file offset of buf[0]
    let line = 0;
    let eof = false;
    while (!eof || start < end) {
      let nl = buf.indexOf(0x0a, start);
      if (nl < 0 || nl >= end) {
        if (!eof) {
          // keep the partial line, read more after it
          if (start > 0) buf.copy(buf, 0, start, end);
          base += start;
          end -= start;
          start = 0;
          if (end === buf.length) buf = Buffer.concat([buf, Buffer.allocUnsafe(buf.length)]);
          const n = readSync(fd, buf, end, buf.length - end, null);
          if (n === 0) eof = true;
          end += n;
          continue;
        }
        nl = end; // the last line, without a line break
      }
      line++;
      let from = start;
      if (line === 1 && BOM.every((b, i) => buf[from + i] === b)) from += 3;
      const to = nl > from && buf[nl - 1] === 0x0d && nl < end ? nl - 1 : nl;
      start = nl + 1;
      const text = buf.toString('utf8', from, to);
      if (!text.trim()) continue;
      const where = `${opts.label}:${line}`;
      yield { row: parseJsonlRow(text, where), where, line, offset: base + from, length: to - from };
    }
  } finally {
    closeSync(fd);
  }
}

/** The row at `offset` (as jsonlLines gave it) of an open file. */
export function jsonlRowAt(fd: number, offset: number, length: number, where: string): Record<string, unknown> {
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, offset + got);
    if (n === 0) break;
    got += n;
  }
  return parseJsonlRow(buf.toString('utf8', 0, got), where);
}

export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
