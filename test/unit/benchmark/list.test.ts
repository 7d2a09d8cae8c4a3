import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listBenchmarks } from '../../../src/benchmark/list.ts';
import { loadBenchmark } from '../../../src/benchmark/load.ts';
import { fixture } from './helpers.ts';

describe('listBenchmarks', () => {
  it('lists every benchmark under ./benchmarks with counts and versions, and broken ones with their error', async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'benchrig-list-'));
    for (const name of ['cfg-json', 'cfg-basic', 'bad-check-type'])
      cpSync(fixture(name), path.join(cwd, 'benchmarks', name), { recursive: true });
    mkdirSync(path.join(cwd, 'benchmarks', 'not-a-benchmark'));

    const list = await listBenchmarks(cwd, {});
    expect(list.map((b) => b.name)).toEqual(['bad-check-type', 'cfg-basic', 'cfg-json']);
    const basic = await loadBenchmark(path.join(cwd, 'benchmarks', 'cfg-basic'), { env: {} });
    expect(list[1]).toEqual({
      name: 'cfg-basic',
      dir: path.join(cwd, 'benchmarks', 'cfg-basic'),
      description: 'JSONL fixture with field mapping',
      n_samples: 5,
      version: basic.version,
    });
    expect(list[2]).toMatchObject({ name: 'cfg-json', n_samples: 2 });
    expect(list[0]).toMatchObject({
      name: 'bad-check-type',
      error: expect.stringMatching(/unknown check type "telepathy"/),
    });
  });

  it('returns an empty list when there is no benchmarks folder', async () => {
    expect(await listBenchmarks(mkdtempSync(path.join(tmpdir(), 'benchrig-list-')), {})).toEqual([]);
  });
});
