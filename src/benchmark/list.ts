// `benchrig list [DIR]`: every benchmark under ./benchmarks (or DIR) with its sample count and
// version — benchmark.toml folders and Harbor task folders alike; DIR that is itself a benchmark is
// listed alone. Without DIR, benchrig's built-in benchmarks follow (those a project's own folder of
// the same name does not shadow: `run NAME` finds the project's first). A broken benchmark is
// listed with its error instead of hiding the others.
import { readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe } from '../errors.ts';
import { BUILT_IN, loadBenchmark } from './load.ts';
import { isHarborFolder } from './harbor/samples.ts';

type BenchmarkListing = (
  | { name: string; dir: string; description?: string; n_samples: number; version: string }
  | { name: string; dir: string; error: string }
) & { builtIn?: true };

const isBenchmark = (dir: string) => existsSync(path.join(dir, 'benchmark.toml')) || isHarborFolder(dir);

export async function listBenchmarks(
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
  under?: string,
): Promise<BenchmarkListing[]> {
  const root = under ? path.resolve(cwd, under) : path.join(cwd, 'benchmarks');
  const dirs = under && isBenchmark(root) ? [root] : await benchmarkDirs(root);
  const own = new Set(dirs.map((d) => path.basename(d)));
  const builtIns =
    under || path.resolve(root) === path.resolve(BUILT_IN)
      ? []
      : (await benchmarkDirs(BUILT_IN)).filter((d) => !own.has(path.basename(d)));
  return [
    ...(await listed(dirs, cwd, env)),
    ...(await listed(builtIns, cwd, env)).map((b) => ({ ...b, builtIn: true as const })),
  ];
}

async function benchmarkDirs(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isDirectory() && isBenchmark(path.join(root, e.name)))
    .map((e) => path.join(root, e.name))
    .sort();
}

async function listed(dirs: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<BenchmarkListing[]> {
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
