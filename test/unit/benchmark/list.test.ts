import { cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listBenchmarks } from '../../../src/benchmark/list.ts';
import { BUILT_IN, loadBenchmark } from '../../../src/benchmark/load.ts';
import { fixture } from './helpers.ts';
import { tempDir } from '../../support/cli.ts';

describe('listBenchmarks', () => {
  it('lists every benchmark under ./benchmarks with counts and versions, and broken ones with their error', async () => {
    const cwd = tempDir('benchrig-list-');
    for (const name of ['cfg-json', 'cfg-basic', 'bad-check-type'])
      cpSync(fixture(name), path.join(cwd, 'benchmarks', name), { recursive: true });
    mkdirSync(path.join(cwd, 'benchmarks', 'not-a-benchmark'));

    const list = (await listBenchmarks(cwd, {})).filter((b) => !b.builtIn);
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

  it("lists benchrig's built-in benchmarks after the project's, except one the project's own folder shadows", async () => {
    const empty = await listBenchmarks(tempDir('benchrig-list-'), {});
    const shipped = readdirSync(BUILT_IN).filter((d) => existsSync(path.join(BUILT_IN, d, 'benchmark.toml')));
    expect(shipped.length).toBeGreaterThan(0);
    expect(empty.map((b) => path.basename(b.dir))).toEqual(shipped.sort());
    expect(empty.every((b) => b.builtIn && !('error' in b))).toBe(true);

    const cwd = tempDir('benchrig-list-');
    cpSync(fixture('cfg-basic'), path.join(cwd, 'benchmarks', shipped[0]), { recursive: true });
    const list = await listBenchmarks(cwd, {});
    const named = list.filter((b) => path.basename(b.dir) === shipped[0]);
    expect(named).toHaveLength(1); // the project's own, as `run NAME` would find it
    expect(named[0]).toMatchObject({ dir: path.join(cwd, 'benchmarks', shipped[0]), name: 'cfg-basic' });
    expect(named[0].builtIn).toBeUndefined();
  });

  it('lists only DIR when one is given', async () => {
    const cwd = tempDir('benchrig-list-');
    mkdirSync(path.join(cwd, 'mine'));
    expect(await listBenchmarks(cwd, {}, 'mine')).toEqual([]);
  });
});
