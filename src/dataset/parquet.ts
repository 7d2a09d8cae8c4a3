// Parquet reader (hyparquet, pure JS; hyparquet-compressors adds snappy/gzip/zstd/brotli/lz4).
// Rows become plain JSON values so they hash, map and serialise like rows from text formats:
// 64-bit integers become numbers when exact and strings otherwise, dates and timestamps ISO
// strings, raw bytes base64, and lists/structs stay nested JSON.
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { BenchrigError } from '../errors.ts';
import type { RawRow, ReadOptions } from './rows.ts';

export async function readParquet(file: string, opts: ReadOptions): Promise<RawRow[]> {
  let objects: Record<string, unknown>[];
  try {
    const buffer = await asyncBufferFromFile(file);
    const metadata = await parquetMetadataAsync(buffer, { parsers: PARSERS });
    // utf8: false keeps unannotated BYTE_ARRAY columns (images, audio) as bytes instead of
    // decoding them as text; string-annotated columns still arrive as strings.
    objects = await parquetReadObjects({ file: buffer, metadata, compressors, utf8: false, parsers: PARSERS });
  } catch (err) {
    throw new BenchrigError('dataset', `${opts.label}: invalid parquet (${(err as Error).message})`);
  }
  // Rows are numbered from 0, like the hub's dataset viewer and the parquet row index.
  return objects.map((obj, i) => {
    const row: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(obj)) row[column] = toJsonValue(value);
    return { row, where: `${opts.label} row ${i}` };
  });
}

/** DATE columns are calendar days: `2024-03-01`, not a midnight-UTC timestamp. */
const PARSERS = {
  dateFromDays: (days: number) => isoDay(days),
};

function isoDay(days: number): string {
  const d = new Date(days * 86_400_000);
  return Number.isNaN(d.getTime()) ? String(days) : d.toISOString().slice(0, 10);
}

/** A decoded parquet value as a JSON value (see the header). */
export function toJsonValue(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'bigint') {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array)
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<number | bigint>, toJsonValue);
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toJsonValue(v);
    return out;
  }
  return value;
}
