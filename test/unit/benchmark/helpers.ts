// Test helpers: fixture paths, throwaway benchmark folders, and error capture.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { BenchrigError } from '../../../src/errors.ts';
import { tempDir } from '../../support/cli.ts';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/benchmarks/', import.meta.url));
export const fixture = (name: string) => path.join(FIXTURES, name);

/** A fresh folder holding `files` (path -> content), or a copy of a fixture plus `files`. */
export function tempBenchmark(files: Record<string, string>, from?: string): string {
  const dir = path.join(tempDir('benchrig-bm-'), 'bench');
  if (from) cpSync(fixture(from), dir, { recursive: true });
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

export async function userError(p: Promise<unknown>, kind?: string): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'expected the promise to reject').toBeInstanceOf(BenchrigError);
  if (kind) expect((err as BenchrigError).kind).toBe(kind);
  return (err as BenchrigError).message;
}
