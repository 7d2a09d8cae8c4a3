// Runs by name (docs/cli.md#naming-a-run): `latest`, `latest~N` and a run id's suffix in place of a run
// folder, in a benchmark's folder as a user works there; a folder of runs and two benchmarks refused.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, readJson, runCli, tempDir } from '../support/cli.ts';

/** A copy of echo-local named `name`, as a user's own benchmark folder. */
function bench(name: string): string {
  const dir = join(tempDir(), name);
  cpSync(join(FIXTURES, 'benchmarks/echo-local'), dir, { recursive: true });
  const toml = join(dir, 'benchmark.toml');
  writeFileSync(toml, readFileSync(toml, 'utf8').replace('name = "echo-local"', `name = "${name}"`));
  return dir;
}

describe('runs by name', () => {
  it('latest, latest~1 and an id suffix name runs; a folder of runs and two benchmarks are refused', async () => {
    const cwd = bench('names-a');
    const first = await runCli(['run', '.', '--mode', 'single'], { cwd });
    expect(first.code, first.stderr).toBe(0);
    const folder = /run folder: (\S+)/.exec(first.stdout)?.[1] ?? '';
    expect(folder).toMatch(/^evals\/oracle\/names-a\/\d{8}-\d{6}/);
    const second = await runCli(['run', '.', '--mode', 'single', '--label', 'second'], { cwd });
    expect(second.code, second.stderr).toBe(0);

    const cmp = await runCli(['compare', 'latest~1', 'latest', '--json'], { cwd });
    expect(cmp.code, cmp.stderr).toBe(0);
    const c = JSON.parse(cmp.stdout);
    expect(c.baseline.id).toBe(readJson(join(cwd, folder, 'run.json')).run_id);

    const id = readJson(join(cwd, folder, 'run.json')).run_id as string;
    const bySuffix = await runCli(['report', id.split('-').slice(-1)[0], '--format', 'json'], { cwd });
    expect(bySuffix.code, bySuffix.stderr).toBe(0);
    expect(JSON.parse(bySuffix.stdout).run.id).toBe(id);
    const latest = await runCli(['report', 'latest', '--format', 'json'], { cwd });
    expect(JSON.parse(latest.stdout).run.label).toBe('second');

    const tooFar = await runCli(['report', 'latest~2'], { cwd });
    expect(tooFar.code).toBe(2);
    expect(tooFar.stderr).toContain('only 2 run(s) of oracle/names-a');

    const folderOfRuns = await runCli(['compare', 'evals/oracle/names-a', 'latest'], { cwd });
    expect(folderOfRuns.code).toBe(2);
    expect(folderOfRuns.stderr).toContain('evals/oracle/names-a is a folder of 2 run(s), not a run');
    expect(folderOfRuns.stderr).toContain(folder);

    // A second benchmark's run in the same evals/: `latest` must say which; two benchmarks need --force.
    const other = await runCli(['run', bench('names-b'), '--mode', 'single', '--output', 'evals'], { cwd });
    expect(other.code, other.stderr).toBe(0);
    const which = await runCli(['report', 'latest'], { cwd });
    expect(which.code).toBe(2);
    expect(which.stderr).toContain('--agent and --benchmark');
    const a = await runCli(['report', 'latest', '--benchmark', 'names-a', '--format', 'json'], { cwd });
    expect(JSON.parse(a.stdout).run.label).toBe('second');
    const two = ['compare', folder, 'latest', '--benchmark', 'names-b'];
    const refused = await runCli(two, { cwd });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('different benchmarks ("names-a", "names-b")');
    expect((await runCli([...two, '--force'], { cwd })).code).toBe(0);
  });
});
