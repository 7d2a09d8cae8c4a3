import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportOf } from '../../support/report.ts';
import {
  assertFile,
  FILE_SCHEMAS,
  jsonSchemas,
  reportFileSchema,
  resultFileSchema,
} from '../../../src/report/schema.ts';
import { REPO } from '../../support/cli.ts';
import { trial } from './fixtures.ts';
import type { TrialResult } from '../../../src/types.ts';

describe('JSON Schemas', () => {
  it('the committed schemas/ files are exactly what the zod definitions generate (npm run schemas)', () => {
    const generated = jsonSchemas();
    expect(Object.keys(generated).sort()).toEqual(Object.keys(FILE_SCHEMAS).sort());
    for (const [file, schema] of Object.entries(generated)) {
      const committed = readFileSync(join(REPO, 'schemas', file), 'utf8');
      expect(committed, `schemas/${file} is stale: run npm run schemas`).toBe(`${JSON.stringify(schema, null, 2)}\n`);
    }
  });

  it('ships schemas/ in the package and documents schema_version and the required keys', () => {
    expect(JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).files).toContain('schemas');
    const s = jsonSchemas() as Record<string, { required?: string[]; properties: Record<string, { const?: unknown }> }>;
    expect(s['result.schema.json'].required).toEqual(
      expect.arrayContaining(['schema_version', 'task_id', 'status', 'checks', 'events', 'metadata']),
    );
    expect(s['evaluation_report.schema.json'].required).toEqual(
      expect.arrayContaining([
        'schema_version',
        'benchmark',
        'agent',
        'run',
        'metrics',
        'checks',
        'tasks',
        'gate',
        'comparison',
        'top_failures',
        'top_successes',
      ]),
    );
    expect(s['run.schema.json'].properties.schema_version.const).toBe(1);
  });
});

describe('assertFile', () => {
  it('accepts what the code writes', async () => {
    const results = [trial('a', 'PASSED'), trial('b', 'FAILED', { error: { kind: 'agent', message: 'x' } })];
    for (const r of results) expect(() => assertFile(resultFileSchema, r, 'results/a.json')).not.toThrow();
    const report = await reportOf(results, {
      benchmark: { name: 'b', version: 'v', n_samples: 2 },
      agent: 'a',
      gate: { metric: 'pass_rate', threshold: 1 },
    });
    expect(() => assertFile(reportFileSchema, report, 'evaluation_report.json')).not.toThrow();
  });

  it('names the file and the wrong key', () => {
    const bad = trial('a', 'PASSED');
    (bad.metadata.tokens as unknown as Record<string, unknown>).input = 'many';
    expect(() => assertFile(resultFileSchema, bad, 'results/a.json')).toThrow(
      'results/a.json: key metadata.tokens.input: expected number, got string',
    );
    const missing: Partial<TrialResult> = trial('a', 'PASSED');
    delete missing.status;
    expect(() => assertFile(resultFileSchema, missing, 'results/a.json')).toThrow(
      'results/a.json: key status: missing',
    );
    const wrongStatus = { ...trial('a', 'PASSED'), status: 'WON' };
    expect(() => assertFile(resultFileSchema, wrongStatus, 'results/a.json')).toThrow(/key status: expected one of/);
    const event = trial('a', 'PASSED', {
      events: [
        { step: 1, ts: 0, type: 'user_message', content: 'x' },
        { step: 'two', ts: 0, type: 'log' } as unknown as TrialResult['events'][number],
      ],
    });
    expect(() => assertFile(resultFileSchema, event, 'results/a.json')).toThrow(
      'key events[1].step: expected number, got string',
    );
  });

  it('refuses an unknown or missing schema_version before looking at the shape', () => {
    expect(() =>
      assertFile(resultFileSchema, { ...trial('a', 'PASSED'), schema_version: 2 }, 'results/a.json'),
    ).toThrow('results/a.json: unknown schema_version 2 (this benchrig reads version 1)');
    expect(() => assertFile(resultFileSchema, { task_id: 'a' }, 'results/a.json')).toThrow(
      'results/a.json: no schema_version',
    );
    expect(() => assertFile(resultFileSchema, null, 'results/a.json')).toThrow('no schema_version');
  });
});
