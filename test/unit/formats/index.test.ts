// The format registry (src/formats/index.ts): which format reads a folder or rows, whose checks make a
// benchmark that format's at grading, and what each brings to export and init, asked by name nowhere.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DATASET_FORMATS, FORMAT_TABLES } from '../../../src/formats/config-keys.ts';
import { configSchema } from '../../../src/config/schema.ts';
import {
  FORMAT_CHECKS,
  FORMATS,
  folderReader,
  formatExporters,
  formatsGrading,
  formatTemplates,
  predictionsReader,
  rowsReader,
} from '../../../src/formats/index.ts';
import { REPO } from '../../support/cli.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'benchrig-formats-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the format registry', () => {
  it('reads a folder of task folders by the format that knows them, and a benchmark folder by none', async () => {
    const tasks = path.join(REPO, 'test/fixtures/harbor');
    const reader = folderReader(tasks);
    if (!reader) throw new Error('no format reads the task folders');
    const read = await reader.read(tasks);
    const notes: string[] = [];
    expect(read.samples(notes).length).toBeGreaterThan(0);
    expect(read.config.checks).toEqual([{ type: 'reward', name: 'reward' }]);
    expect(folderReader(path.join(REPO, 'test/fixtures/swebench-run'))).toBeNull();
    expect(folderReader(tmp)).toBeNull();
  });

  it('maps rows by [dataset] format: unset is a plain dataset, a name no format has is none', () => {
    expect(rowsReader(undefined)?.defaultChecks).toBeUndefined();
    expect(rowsReader('swebench')?.defaultChecks).toEqual([{ type: 'swebench', scope: 'response' }]);
    expect(rowsReader('nonesuch')).toBeUndefined();
    expect(rowsReader('toString')).toBeUndefined(); // not a key of the prototype
  });

  it('makes a benchmark a format at grading by the checks it uses', () => {
    expect(Object.keys(FORMAT_CHECKS)).toEqual(['swebench']);
    expect(formatsGrading([{ type: 'exact' }, { type: 'reward' }])).toEqual([]);
    const graded = formatsGrading([{ type: 'exact' }, { type: 'swebench' }]);
    expect(graded.map((f) => f.title)).toEqual(['SWE-bench']);
    const fields = graded[0].resultFields?.({
      sampleId: 's',
      modelPatch: { text: 'x'.repeat(100_001), truncated: false },
      verdicts: [],
      artifacts: {},
    });
    expect(String(fields?.model_patch)).toMatch(/^x{100000}\n… \(clipped: 100001 chars/);
    expect(
      graded[0].resultFields?.({
        sampleId: 's',
        modelPatch: { text: '', truncated: false, unsubmitted: true },
        verdicts: [],
        artifacts: {},
      }),
    ).toEqual({});
  });

  it('reads a predictions file through the format that has a reader, naming what is wrong', () => {
    const file = path.join(tmp, 'preds.jsonl');
    writeFileSync(
      file,
      [
        JSON.stringify({ instance_id: 'a', model_name_or_path: 'm', model_patch: 'diff' }),
        JSON.stringify({ instance_id: 'b', model_name_or_path: 'm', model_patch: null }),
      ].join('\n'),
    );
    const r = predictionsReader().read(readFileSync(file, 'utf8'), file);
    if ('problem' in r) throw new Error(r.problem);
    expect([...r.patches]).toEqual([
      ['a', 'diff'],
      ['b', null],
    ]);
    expect(r.outside(new Set(['a', 'b']))).toBeNull();
    expect(r.outside(new Set(['a']))).toMatch(/preds\.jsonl:2: instance_id "b" is not in the dataset/);
    expect(predictionsReader().read('{not json', file)).toHaveProperty('problem');
  });

  it('lists the exporters and init templates the formats bring', () => {
    expect(Object.keys(formatExporters())).toEqual(['harbor']);
    expect(Object.keys(formatTemplates())).toEqual(['harbor']);
  });

  it("brings the configuration's `[dataset] format` values and tables: every format with rows but plain, and their tables", () => {
    const withRows = Object.entries(FORMATS as Record<string, { rows?: unknown }>)
      .filter(([name, f]) => f.rows && name !== 'plain')
      .map(([name]) => name);
    expect([...DATASET_FORMATS]).toEqual(withRows);
    for (const name of DATASET_FORMATS) expect(rowsReader(name)).toBeDefined();
    // each table is a key of the configuration, refused when it has a key it does not know
    for (const [key, table] of Object.entries(FORMAT_TABLES)) {
      expect(Object.keys(configSchema.shape)).toContain(key);
      expect(table.safeParse({}).success).toBe(true);
      expect(table.safeParse({ nope: 1 }).success).toBe(false);
    }
  });
});
