import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BenchrigError } from '../../../src/errors.ts';
import { readDataset, READERS } from '../../../src/dataset/read.ts';
import { tempDir } from '../../support/cli.ts';

const dir = tempDir('benchrig-ds-');
function file(name: string, text: string): string {
  writeFileSync(path.join(dir, name), text);
  return name;
}
const read = (source: string, jsonColumns?: Set<string>) => readDataset(source, { baseDir: dir, jsonColumns });
async function datasetError(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BenchrigError);
  expect((err as BenchrigError).kind).toBe('dataset');
  return (err as BenchrigError).message;
}

describe('jsonl', () => {
  it('reads one object per line, skips blank lines and names each row file:line', async () => {
    const src = file('a.jsonl', '{"id": 1, "input": "x"}\n\n{"id": "b", "input": "y"}\r\n');
    const rows = await read(src);
    expect(rows.map((r) => r.row)).toEqual([
      { id: 1, input: 'x' },
      { id: 'b', input: 'y' },
    ]);
    expect(rows.map((r) => r.where)).toEqual([`${path.join(dir, 'a.jsonl')}:1`, `${path.join(dir, 'a.jsonl')}:3`]);
  });

  it('names file:line of a malformed line', async () => {
    const src = file('bad.jsonl', '{"id": 1, "input": "x"}\n{"id": 2, "input": \n');
    expect(await datasetError(read(src))).toMatch(new RegExp(`bad\\.jsonl:2: invalid JSON`));
  });

  it('refuses a line that is not an object', async () => {
    const src = file('arr.jsonl', '{"id": 1}\n[1, 2]\n');
    expect(await datasetError(read(src))).toMatch(/arr\.jsonl:2: a row must be a JSON object, got an array/);
  });
});

describe('json', () => {
  it('reads a top-level array', async () => {
    const rows = await read(file('top.json', '[{"id": 1, "input": "a"}, {"id": 2, "input": "b"}]'));
    expect(rows.map((r) => r.row.id)).toEqual([1, 2]);
    expect(rows[1].where).toMatch(/top\.json\[1\]$/);
  });

  it('reads rows under "rows" or "data"', async () => {
    expect((await read(file('rows.json', '{"rows": [{"id": 1}]}')))[0].row).toEqual({ id: 1 });
    const rows = await read(file('data.json', '{"meta": 1, "data": [{"id": 7}]}'));
    expect(rows[0].row).toEqual({ id: 7 });
    expect(rows[0].where).toMatch(/data\.json\.data\[0\]$/);
  });

  it('names the row index of a bad row, and refuses other shapes', async () => {
    expect(await datasetError(read(file('badrow.json', '[{"id": 1}, "oops"]')))).toMatch(
      /badrow\.json\[1\]: row 1 must be a JSON object, got a string/,
    );
    expect(await datasetError(read(file('obj.json', '{"items": []}')))).toMatch(
      /obj\.json: expected a top-level array of rows/,
    );
    expect(await datasetError(read(file('broken.json', '[{')))).toMatch(/broken\.json: invalid JSON/);
  });
});

describe('csv', () => {
  it('reads quoted fields with commas, newlines and doubled quotes, naming each row by its first line', async () => {
    const src = file(
      'q.csv',
      ['id,input,notes', '1,"Hello, world",plain', '2,"Line one', 'line two","say ""hi"""', '', '3,simple,'].join(
        '\n',
      ) + '\n',
    );
    const rows = await read(src);
    expect(rows.map((r) => r.row)).toEqual([
      { id: '1', input: 'Hello, world', notes: 'plain' },
      { id: '2', input: 'Line one\nline two', notes: 'say "hi"' },
      { id: '3', input: 'simple', notes: '' },
    ]);
    expect(rows.map((r) => r.where.split(':').pop())).toEqual(['2', '3', '6']);
  });

  it('parses JSON cells of object/array columns only', async () => {
    const src = file('j.csv', 'id,files,setup,input\n1,"{""a.txt"": ""A""}","[""echo 1""]","[not json, plain text]"\n');
    const [r] = await read(src, new Set(['files', 'setup']));
    expect(r.row).toEqual({ id: '1', files: { 'a.txt': 'A' }, setup: ['echo 1'], input: '[not json, plain text]' });
  });

  it('names file:line and column of a JSON cell that does not parse', async () => {
    const src = file('jbad.csv', 'id,files\n1,{}\n2,"{oops"\n');
    expect(await datasetError(read(src, new Set(['files'])))).toMatch(
      /jbad\.csv:3: column "files" looks like JSON but does not parse/,
    );
  });

  it('names file and line of a malformed record', async () => {
    expect(await datasetError(read(file('short.csv', 'id,input,x\n1,a,b\n2,c\n')))).toMatch(
      /short\.csv:3: invalid CSV: Invalid Record Length/,
    );
    expect(await datasetError(read(file('open.csv', 'id,input\n1,"never closed\n')))).toMatch(
      /open\.csv:\d+: invalid CSV: Quote Not Closed/,
    );
  });
});

describe('readDataset', () => {
  it('reads parquet and names a malformed hf: source', async () => {
    file('t.parquet', 'PAR1');
    expect(await datasetError(read('t.parquet'))).toMatch(/t\.parquet: invalid parquet/);
    expect(await datasetError(read('hf:nope'))).toMatch(
      /"hf:nope" is not a hub dataset name \(expected hf:owner\/name\)/,
    );
  });

  it('names a missing file and an unknown format', async () => {
    expect(await datasetError(read('nope.jsonl'))).toMatch(/nope\.jsonl: dataset file not found/);
    expect(await datasetError(read(file('t.xml', '<x/>')))).toMatch(/unknown dataset format "\.xml" \(known: \.jsonl/);
  });

  it('has one reader per format', () => {
    expect(Object.keys(READERS)).toEqual(expect.arrayContaining(['.jsonl', '.json', '.csv', '.parquet']));
  });
});
