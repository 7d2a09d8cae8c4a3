// Parquet through the reader registry: rows come out as plain JSON values a benchmark can use.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { BenchrigError } from '../../../src/errors.ts';
import { readDataset } from '../../../src/dataset/read.ts';
import { toJsonValue } from '../../../src/dataset/parquet.ts';
import { tempDir } from '../../support/cli.ts';

const dir = tempDir('benchrig-pq-');
const write = (name: string, data: ArrayBuffer | string) => {
  writeFileSync(path.join(dir, name), typeof data === 'string' ? data : Buffer.from(data));
  return name;
};
const read = (source: string) => readDataset(source, { baseDir: dir });

describe('parquet files', () => {
  it('reads rows as objects, 64-bit integers as numbers when exact and strings when not', async () => {
    const src = write(
      'ints.parquet',
      parquetWriteBuffer({
        columnData: [
          { name: 'id', data: [1n, 9007199254740991n, 9007199254740993n, -9007199254740993n], type: 'INT64' },
          { name: 'input', data: ['a', 'b', 'c', 'd'], type: 'STRING' },
          { name: 'score', data: [0.5, 1, 2.25, -1], type: 'DOUBLE' },
        ],
      }),
    );
    const rows = await read(src);
    expect(rows.map((r) => r.row)).toEqual([
      { id: 1, input: 'a', score: 0.5 },
      { id: 9007199254740991, input: 'b', score: 1 },
      { id: '9007199254740993', input: 'c', score: 2.25 },
      { id: '-9007199254740993', input: 'd', score: -1 },
    ]);
    expect(rows.map((r) => r.where)).toEqual([0, 1, 2, 3].map((i) => `${path.join(dir, 'ints.parquet')} row ${i}`));
  });

  it('keeps lists and structs as JSON, dates as ISO strings, bytes as base64, nulls as null', async () => {
    const src = write(
      'nested.parquet',
      parquetWriteBuffer({
        codec: 'UNCOMPRESSED',
        columnData: [
          { name: 'id', data: ['x', 'y'] },
          { name: 'tags', data: [['red', 'blue'], []] },
          { name: 'meta', data: [{ n: 7n, label: 'seven' }, null] },
          { name: 'day', data: [19723, 0] },
          { name: 'at', data: [1_700_000_000_123n, 0n] },
          { name: 'blob', data: [new Uint8Array([0, 1, 254, 255]), new Uint8Array([104, 105])] },
        ],
        schema: [
          { name: 'root', num_children: 6 },
          { name: 'id', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
          { name: 'tags', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
          { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
          { name: 'element', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
          { name: 'meta', repetition_type: 'OPTIONAL', num_children: 2 },
          { name: 'n', type: 'INT64', repetition_type: 'OPTIONAL' },
          { name: 'label', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
          { name: 'day', type: 'INT32', converted_type: 'DATE', repetition_type: 'REQUIRED' },
          { name: 'at', type: 'INT64', converted_type: 'TIMESTAMP_MILLIS', repetition_type: 'REQUIRED' },
          { name: 'blob', type: 'BYTE_ARRAY', repetition_type: 'REQUIRED' },
        ],
      }),
    );
    const rows = (await read(src)).map((r) => r.row);
    expect(rows[0]).toEqual({
      id: 'x',
      tags: ['red', 'blue'],
      meta: { n: 7, label: 'seven' },
      day: '2024-01-01',
      at: '2023-11-14T22:13:20.123Z',
      blob: 'AAH+/w==',
    });
    expect(rows[1]).toMatchObject({
      id: 'y',
      tags: [],
      meta: null,
      day: '1970-01-01',
      at: '1970-01-01T00:00:00.000Z',
      blob: 'aGk=',
    });
    expect(JSON.parse(JSON.stringify(rows))).toEqual(rows); // plain JSON all the way down
  });

  it('refuses a file that is not parquet, naming it', async () => {
    const src = write('fake.parquet', 'id,input\n1,hello\n');
    const err = await read(src).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BenchrigError);
    expect((err as BenchrigError).message).toMatch(/fake\.parquet: invalid parquet/);
  });
});

describe('toJsonValue', () => {
  it('converts typed arrays, nested BigInts and invalid dates', () => {
    expect(toJsonValue(new BigInt64Array([1n, 2n ** 62n]))).toEqual([1, String(2n ** 62n)]);
    expect(toJsonValue(new Float32Array([0.5]))).toEqual([0.5]);
    expect(toJsonValue({ a: [{ b: 3n }], d: new Date('x') })).toEqual({ a: [{ b: 3 }], d: null });
    expect(toJsonValue(undefined)).toBeNull();
  });
});
