// Two benchmark folders with one name keep separate histories (docs/benchmarks.md#identity); the first
// run of the second folder says so once, since its runs share `evals/<agent>/<name>/` with the first's.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Benchmark } from '../benchmark/types.ts';
import { identityOf, listRuns } from '../report/history.ts';
import { safeName } from './run-dir.ts';

/** Warns when runs under `outputRoot` have this benchmark's name and another identity, and none has its own. */
export async function warnSameName(
  outputRoot: string,
  benchmark: Pick<Benchmark, 'name' | 'id' | 'dir'>,
  warn: (line: string) => void,
): Promise<void> {
  const agents = await readdir(outputRoot).catch(() => [] as string[]);
  const others = new Set<string>();
  for (const agent of agents) {
    for (const run of await listRuns(join(outputRoot, agent, safeName(benchmark.name)))) {
      const id = identityOf(run);
      if (id === benchmark.id) return; // not the first run of this one: said already
      if (id !== null) others.add(run.runJson?.benchmark?.dir ?? id);
    }
  }
  if (others.size === 0) return;
  warn(
    `warning: ${outputRoot} holds runs of another benchmark named "${benchmark.name}" (${[...others].join(', ')}); ` +
      `this one (${benchmark.dir}) keeps its own history and baseline. Give one of them another name, or set the same \`id\` in both if they are one benchmark`,
  );
}
