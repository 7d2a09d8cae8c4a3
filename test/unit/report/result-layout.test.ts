import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  listResults,
  logFile,
  makeResultFolders,
  resultFile,
  resultNamesOf,
  shardAbove,
  shardOf,
  tempFilesOf,
} from '../../../src/report/result-layout.ts';
import { tempDir } from '../../support/cli.ts';

describe('the result layout of a run folder', () => {
  it('keeps a run of up to the threshold flat, as every run before', () => {
    const dir = tempDir();
    makeResultFolders(dir, 10_000, {});
    expect(readdirSync(join(dir, 'results'))).toEqual([]);
    expect(resultFile(dir, 'a-t1')).toBe(join(dir, 'results', 'a-t1.json'));
    expect(logFile(dir, 'a-t1')).toBe(join(dir, 'logs', 'a-t1.log'));
  });

  it('shards a larger run into 256 folders by a hash of the task id, each made with the run folder', () => {
    const dir = tempDir();
    makeResultFolders(dir, 10_001, {});
    expect(readdirSync(join(dir, 'results')).filter((n) => !n.startsWith('.'))).toHaveLength(256);
    expect(readdirSync(join(dir, 'logs'))).toHaveLength(256);
    expect(resultFile(dir, 's1-t2')).toBe(join(dir, 'results', shardOf('s1-t2'), 's1-t2.json'));
    expect(logFile(dir, 's1-t2')).toBe(join(dir, 'logs', shardOf('s1-t2'), 's1-t2.log'));
    expect(existsSync(join(dir, 'results', shardOf('s1-t2')))).toBe(true);
  });

  it('spreads task ids over the shards, the same id always to the same one', () => {
    const ids = Array.from({ length: 25_600 }, (_, i) => `s${String(i).padStart(6, '0')}-t${(i % 10) + 1}`);
    const counts = new Map<string, number>();
    for (const id of ids) counts.set(shardOf(id), (counts.get(shardOf(id)) ?? 0) + 1);
    expect(counts.size).toBe(256);
    expect(Math.max(...counts.values())).toBeLessThan(200); // ~100 each
    expect(shardOf('s000001-t2')).toBe(shardOf('s000001-t2'));
    expect([...counts.keys()].every((s) => /^[0-9a-f]{2}$/.test(s))).toBe(true);
  });

  it('lists flat files and every shard, a folder at a time, without temp files', () => {
    const dir = tempDir();
    makeResultFolders(dir, 1, { BENCHRIG_SHARD_ABOVE: '0' });
    for (const id of ['b-t1', 'a-t1', 'c-t2', 'd-t1']) writeFileSync(resultFile(dir, id), '{}');
    writeFileSync(join(dir, 'results', 'old.json'), '{}'); // a flat file beside them is read too
    const tmp = join(dir, 'results', shardOf('a-t1'), '.a-t1.json.1.1.1.tmp');
    writeFileSync(tmp, '{');
    const names = [...resultNamesOf(dir)];
    expect(names).toHaveLength(5);
    expect(names[0]).toBe('old.json');
    expect(names.slice(1).sort()).toEqual(
      ['a-t1', 'b-t1', 'c-t2', 'd-t1'].map((id) => join(shardOf(id), `${id}.json`)).sort(),
    );
    // counted ahead of reading, from the same walk: every name once, in the same order
    const all = listResults(dir, 10);
    expect(all).toMatchObject({ count: 5, complete: true });
    expect([...all.names]).toEqual(names);
    const some = listResults(dir, 3);
    expect(some).toMatchObject({ count: 3, complete: false });
    expect([...some.names]).toEqual(names);
    expect([...tempFilesOf(dir)]).toEqual([tmp]);
  });

  it('BENCHRIG_SHARD_ABOVE sets the threshold; anything but a whole number leaves the default', () => {
    expect(shardAbove({})).toBe(10_000);
    expect(shardAbove({ BENCHRIG_SHARD_ABOVE: '50' })).toBe(50);
    expect(shardAbove({ BENCHRIG_SHARD_ABOVE: 'many' })).toBe(10_000);
    expect(shardAbove({ BENCHRIG_SHARD_ABOVE: '-1' })).toBe(10_000);
  });
});
