import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BenchrigError } from '../../../src/errors.ts';
import { checkFieldMap, jsonColumns, mapRows } from '../../../src/dataset/map.ts';
import type { RawRow } from '../../../src/dataset/rows.ts';
import { tempDir } from '../../support/cli.ts';

const baseDir = tempDir('benchrig-map-');
mkdirSync(path.join(baseDir, 'tasks', 't1'), { recursive: true });

const rows = (...list: Array<Record<string, unknown>>): RawRow[] =>
  list.map((row, i) => ({ row, where: `data/t.jsonl:${i + 1}` }));
const map = (r: RawRow[], fields: Record<string, string> = {}) => mapRows(r, { fields, baseDir });
function datasetError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(BenchrigError);
    return (err as BenchrigError).message;
  }
  throw new Error('expected an error');
}

describe('field mapping', () => {
  it('maps fields to columns, defaults to the same name, and puts the rest in metadata', () => {
    const [s] = map(
      rows({
        task_id: 7,
        instruction: 'Do it',
        answer: '42',
        difficulty: 'hard',
        metadata: { topic: 'math' },
        setup: ['ls'],
      }),
      { id: 'task_id', input: 'instruction', expected: 'answer' },
    );
    expect(s).toEqual({
      id: '7',
      input: 'Do it',
      expected: '42',
      setup: ['ls'],
      metadata: { difficulty: 'hard', topic: 'math' },
    });
  });

  it('keeps every known field and its shape', () => {
    const [s] = map(
      rows({
        id: 'a',
        input: 'x',
        expectations: { judge: 'rubric' },
        user: { turns: ['more'] },
        files: { 'a.txt': 'A' },
        tests: 'tasks/t1',
        solution: { commands: ['echo 1'], reply: '1' },
      }),
    );
    expect(s).toMatchObject({
      expectations: { judge: 'rubric' },
      user: { turns: ['more'] },
      files: { 'a.txt': 'A' },
      tests: 'tasks/t1',
      solution: { commands: ['echo 1'], reply: '1' },
      metadata: {},
    });
  });

  it('treats empty cells and nulls in optional fields as absent', () => {
    const [s] = map(rows({ id: 'a', input: 'x', files: '', expected: null }));
    expect(s).toEqual({ id: 'a', input: 'x', metadata: {} });
  });

  it('lists object/array columns for text readers, following the mapping', () => {
    const cols = jsonColumns({ tests: 'test_files' });
    expect(cols.has('test_files')).toBe(true);
    expect(cols.has('files')).toBe(true);
    expect(cols.has('input')).toBe(false);
  });

  it('refuses a [dataset.fields] key that is not a sample field', () => {
    expect(datasetError(() => checkFieldMap({ answer: 'x' }, 'b.toml'))).toMatch(
      /^b\.toml: key dataset\.fields\.answer: not a sample field/,
    );
  });
});

describe('row validation', () => {
  it('refuses a row without an id, naming file:line and the column', () => {
    expect(datasetError(() => map(rows({ id: 'a', input: 'x' }, { input: 'y' }), {}))).toBe(
      'data/t.jsonl:2: field id is missing (every row needs an id; rows are never auto-numbered)',
    );
    expect(datasetError(() => map(rows({ task_id: '', input: 'x' }), { id: 'task_id' }))).toMatch(
      /^data\/t\.jsonl:1: field id \(column "task_id"\) is missing/,
    );
  });

  it('refuses ids that are not strings or numbers', () => {
    expect(datasetError(() => map(rows({ id: { a: 1 }, input: 'x' })))).toMatch(
      /data\/t\.jsonl:1: field id must be a string or a number/,
    );
  });

  it('refuses duplicate ids naming both rows, also when one was a number', () => {
    expect(datasetError(() => map(rows({ id: 1, input: 'a' }, { id: 'x', input: 'b' }, { id: '1', input: 'c' })))).toBe(
      'duplicate sample id "1": data/t.jsonl:1 and data/t.jsonl:3',
    );
  });

  it('requires a string input', () => {
    expect(datasetError(() => map(rows({ id: 'a' })))).toMatch(/data\/t\.jsonl:1: field input is missing/);
    expect(datasetError(() => map(rows({ id: 'a', input: 3 })))).toMatch(/field input must be a string/);
  });

  it('checks files/tests folders exist and objects hold strings', () => {
    expect(datasetError(() => map(rows({ id: 'a', input: 'x', files: 'tasks/missing' })))).toMatch(
      /data\/t\.jsonl:1: field files names folder "tasks\/missing", which does not exist/,
    );
    expect(datasetError(() => map(rows({ id: 'a', input: 'x', tests: { 'a.sh': 1 } })))).toMatch(
      /field tests must be an object of path -> content strings/,
    );
  });

  it('checks setup, solution, user, expectations and metadata shapes', () => {
    const bad = (extra: Record<string, unknown>) => datasetError(() => map(rows({ id: 'a', input: 'x', ...extra })));
    expect(bad({ setup: 'ls' })).toMatch(/field setup must be a list of command strings/);
    expect(bad({ solution: { command: 'x' } })).toMatch(/field solution must be a shell script string or/);
    expect(bad({ solution: { commands: 'x' } })).toMatch(/field solution must be/);
    expect(bad({ user: ['hi'] })).toMatch(/field user must be an object/);
    expect(bad({ user: { turns: 'hi' } })).toMatch(/field user \.turns must be a list of strings/);
    expect(bad({ expectations: 'x' })).toMatch(/field expectations must be an object/);
    expect(bad({ metadata: [1] })).toMatch(/field metadata must be an object/);
  });

  it('reads expected_contexts as ground truth, not metadata, and checks each item naming the row', () => {
    const [s] = map(rows({ id: 'a', input: 'x', expected_contexts: ['doc-1', { id: 'doc-2' }, { text: 'Ça va' }] }));
    expect(s.expected_contexts).toEqual(['doc-1', { id: 'doc-2' }, { text: 'Ça va' }]);
    expect(s.metadata).toEqual({});
    const [mapped] = map(rows({ id: 'a', input: 'x', gold: ['d'] }), { expected_contexts: 'gold' });
    expect(mapped).toMatchObject({ expected_contexts: ['d'], metadata: {} });
    expect(jsonColumns({})).toContain('expected_contexts');
    const bad = (v: unknown) =>
      datasetError(() => map(rows({ id: 'a', input: 'x' }, { id: 'b', input: 'y', expected_contexts: v })));
    const shape = /^data\/t\.jsonl:2: field expected_contexts must be a non-empty list of ids or texts/;
    expect(bad([])).toMatch(shape);
    expect(bad('doc-1')).toMatch(shape);
    expect(bad(['a', ''])).toMatch(/data\/t\.jsonl:2: field expected_contexts \[1\] is empty/);
    expect(bad(['  '])).toMatch(/\[0\] is empty/);
    expect(bad([{ text: '' }])).toMatch(/\[0\]\.text is empty/);
    expect(bad([{}])).toMatch(/\[0\] has neither an id nor a text/);
    expect(bad([{ id: 3 }])).toMatch(/\[0\]\.id must be a non-empty string/);
    expect(bad([{ id: 'a', rank: 1 }])).toMatch(/\[0\] has unknown key rank \(allowed: id, text\)/);
    expect(bad([7])).toMatch(/\[0\] is neither a string nor an \{"id", "text"\} object/);
    expect(bad(['x'.repeat(4001)])).toMatch(/\[0\] is longer than 4000 characters.*match it by id instead/);
  });
});
