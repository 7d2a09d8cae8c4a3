// JSON Lines reader: one JSON object per line; blank lines are skipped; errors name file:line.
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
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new BenchrigError('dataset', `${where}: invalid JSON (${(err as Error).message})`);
    }
    if (!isPlainObject(value))
      throw new BenchrigError('dataset', `${where}: a row must be a JSON object, got ${kindOf(value)}`);
    rows.push({ row: value, where });
  });
  return rows;
}

export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
