import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeJsonAtomic, writeTextAtomic } from '../../../src/report/write.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'benchrig-write-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('atomic writes', () => {
  it('writes pretty JSON and leaves no temp file behind', async () => {
    const path = join(dir, 'r.json');
    await writeJsonAtomic(path, { a: 1 });
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ a: 1 });
    expect(await readFile(path, 'utf8')).toBe('{\n  "a": 1\n}\n');
    expect(await readdir(dir)).toEqual(['r.json']);
  });

  it('replaces an existing file and creates missing folders', async () => {
    const path = join(dir, 'deep', 'er', 'x.txt');
    await writeTextAtomic(path, 'one');
    await writeTextAtomic(path, 'two');
    expect(await readFile(path, 'utf8')).toBe('two');
    expect(await readdir(join(dir, 'deep', 'er'))).toEqual(['x.txt']);
  });

  it('removes its temp file when the rename fails', async () => {
    const path = join(dir, 'taken');
    await mkdir(join(path, 'child'), { recursive: true }); // a non-empty folder: rename cannot replace it
    await expect(writeTextAtomic(path, 'x')).rejects.toThrow();
    expect(await readdir(dir)).toEqual(['taken']);
  });

  it('concurrent writers to one file: the result is one complete value', async () => {
    const path = join(dir, 'c.json');
    await Promise.all(Array.from({ length: 20 }, (_, i) => writeJsonAtomic(path, { i, pad: 'x'.repeat(10_000) })));
    const v = JSON.parse(await readFile(path, 'utf8'));
    expect(v.pad).toHaveLength(10_000);
    expect(await readdir(dir)).toEqual(['c.json']);
  });
});
