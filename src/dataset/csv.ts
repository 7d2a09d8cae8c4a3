// CSV reader (csv-parse): a header row, then one record per row; quoted fields may hold commas,
// newlines and doubled quotes. Cells of object/array sample fields hold JSON and are parsed.
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { BenchrigError } from '../errors.ts';
import type { RawRow, ReadOptions } from './rows.ts';

interface Parsed {
  record: Record<string, string>;
  info: { lines: number; empty_lines: number };
}

export async function readCsv(file: string, opts: ReadOptions): Promise<RawRow[]> {
  const text = await readFile(file, 'utf8');
  let parsed: Parsed[];
  try {
    parsed = parse(text, { columns: true, bom: true, info: true, skip_empty_lines: true }) as unknown as Parsed[];
  } catch (err) {
    const e = err as Error & { lines?: number };
    const reason = e.message.replace(/\s+(on|at) line \d+\.?$/, '');
    throw new BenchrigError('dataset', `${opts.label}${e.lines ? `:${e.lines}` : ''}: invalid CSV: ${reason}`);
  }
  const rows: RawRow[] = [];
  // info.lines is the line a record ends on; a record starts after the previous one (and any blank lines).
  let prevEnd = 1;
  let prevEmpty = 0;
  for (const { record, info } of parsed) {
    const start = prevEnd + 1 + (info.empty_lines - prevEmpty);
    prevEnd = info.lines;
    prevEmpty = info.empty_lines;
    const where = `${opts.label}:${start}`;
    const row: Record<string, unknown> = {};
    for (const [column, cell] of Object.entries(record)) {
      row[column] = opts.jsonColumns?.has(column) ? jsonCell(cell, column, where) : cell;
    }
    rows.push({ row, where });
  }
  return rows;
}

function jsonCell(cell: string, column: string, where: string): unknown {
  const t = cell.trim();
  if (!t.startsWith('{') && !t.startsWith('[')) return cell;
  try {
    return JSON.parse(t);
  } catch (err) {
    throw new BenchrigError(
      'dataset',
      `${where}: column "${column}" looks like JSON but does not parse (${(err as Error).message})`,
    );
  }
}
