// `benchrig list`: every benchmark under ./benchmarks with its sample count and version. A broken
// benchmark is listed with its error instead of hiding the others.
import { readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe } from '../errors.ts';
import { loadBenchmark } from './load.ts';

export type BenchmarkListing =
  | { name: string; dir: string; description?: string; n_samples: number; version: string }
  | { name: string; dir: string; error: string };

export async function listBenchmarks(cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<BenchmarkListing[]> {
  const root = path.join(cwd, 'benchmarks');
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  const dirs = entries
    .filter((e) => e.isDirectory() && existsSync(path.join(root, e.name, 'benchmark.toml')))
    .map((e) => path.join(root, e.name))
    .sort();
  const out: BenchmarkListing[] = [];
  for (const dir of dirs) {
    try {
      const b = await loadBenchmark(dir, { cwd, env });
      out.push({ name: b.name, dir, ...(b.description ? { description: b.description } : {}), n_samples: b.nSamplesTotal, version: b.version });
    } catch (err) {
      out.push({ name: path.basename(dir), dir, error: describe(err) });
    }
  }
  return out;
}
