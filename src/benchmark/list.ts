// `benchrig list [DIR]`: every benchmark under ./benchmarks (or DIR) with its sample count and
// version — benchmark.toml folders and Harbor task folders alike; DIR that is itself a benchmark is
// listed alone. A broken benchmark is listed with its error instead of hiding the others.
import { readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe } from '../errors.ts';
import { loadBenchmark } from './load.ts';
import { isHarborFolder } from './harbor/samples.ts';

export type BenchmarkListing =
  | { name: string; dir: string; description?: string; n_samples: number; version: string }
  | { name: string; dir: string; error: string };

const isBenchmark = (dir: string) => existsSync(path.join(dir, 'benchmark.toml')) || isHarborFolder(dir);

export async function listBenchmarks(
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
  under?: string,
): Promise<BenchmarkListing[]> {
  const root = under ? path.resolve(cwd, under) : path.join(cwd, 'benchmarks');
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  const dirs =
    under && isBenchmark(root)
      ? [root]
      : entries
          .filter((e) => e.isDirectory() && isBenchmark(path.join(root, e.name)))
          .map((e) => path.join(root, e.name))
          .sort();
  const out: BenchmarkListing[] = [];
  for (const dir of dirs) {
    try {
      const b = await loadBenchmark(dir, { cwd, env });
      out.push({
        name: b.name,
        dir,
        ...(b.description ? { description: b.description } : {}),
        n_samples: b.nSamplesTotal,
        version: b.version,
      });
    } catch (err) {
      out.push({ name: path.basename(dir), dir, error: describe(err) });
    }
  }
  return out;
}
