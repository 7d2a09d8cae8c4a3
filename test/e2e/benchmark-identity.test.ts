// A benchmark's identity (issue #40, item 3; docs/benchmarks.md#identity): two folders with one name
// keep separate histories and baselines, the second one's first run warns once, `list` shows the
// folders, and a declared `id` makes two folders one benchmark. Through the real CLI, no sandbox.
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, readJson, runCli, tempDir } from '../support/cli.ts';

/** `cwd/<at>`: a copy of echo-local (its name stays "echo-local"), its toml changed by `edit`. */
function copyAt(cwd: string, at: string, edit: (toml: string) => string = (t) => t): string {
  const dir = join(cwd, at);
  mkdirSync(join(dir, '..'), { recursive: true });
  cpSync(join(FIXTURES, 'benchmarks/echo-local'), dir, { recursive: true });
  const toml = join(dir, 'benchmark.toml');
  writeFileSync(toml, edit(readFileSync(toml, 'utf8')));
  return dir;
}

const WARNING = /holds runs of another benchmark named "echo-local"/g;

describe("a benchmark's identity", () => {
  it('two folders with one name: separate histories and baselines, one warning, list shows each folder', async () => {
    const cwd = tempDir('benchrig-identity-');
    copyAt(cwd, 'benchmarks/echo-local');
    copyAt(cwd, 'elsewhere/echo-local');
    const run = (at: string) =>
      runCli(['run', at, '--agent', 'oracle', '--mode', 'single', '--output', 'evals', '--baseline', 'auto'], { cwd });

    const first = await run('benchmarks/echo-local');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).not.toMatch(WARNING);
    const second = await run('elsewhere/echo-local');
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr.match(WARNING)?.length, second.stderr).toBe(1);
    expect(second.stderr).toContain('another benchmark of this name'); // the first folder's run is not its baseline
    expect(second.stderr).toMatch(/baseline: no earlier run .* graded anything/);
    const third = await run('elsewhere/echo-local');
    expect(third.stderr).not.toMatch(WARNING); // once
    const runs = readdirSync(join(cwd, 'evals/oracle/echo-local')).sort();
    expect(third.stderr).toContain(`baseline: ${join(cwd, 'evals/oracle/echo-local', runs[1])}`);

    const ids = runs.map((n) => readJson(join(cwd, 'evals/oracle/echo-local', n, 'run.json')).benchmark.id);
    expect(ids[0]).toBe(`echo-local:${join(cwd, 'benchmarks/echo-local')}`);
    expect(ids[1]).toBe(`echo-local:${join(cwd, 'elsewhere/echo-local')}`);
    expect(ids[2]).toBe(ids[1]);

    const h = await runCli(['history', 'evals/oracle/echo-local'], { cwd });
    expect(h.code, h.stderr).toBe(0);
    const tables = h.stdout.split(/\n\n(?=history of)/);
    expect(tables).toHaveLength(2);
    expect(tables[0]).toContain(`benchmark ${join(cwd, 'benchmarks/echo-local')} (1 run`);
    expect(tables[1]).toContain(`benchmark ${join(cwd, 'elsewhere/echo-local')} (2 runs`);

    const list = await runCli(['list'], { cwd });
    expect(list.stdout).toMatch(/^BENCHMARK\s+SAMPLES\s+VERSION\s+FOLDER\s+DESCRIPTION/);
    expect(list.stdout).toMatch(/\necho-local\s+4\s+[0-9a-f]{16}\s+benchmarks\/echo-local\b/);
  });

  it('the same declared id in two folders is one benchmark: one history, no warning', async () => {
    const cwd = tempDir('benchrig-identity-');
    const withId = (t: string) => `id = "echo"\n${t}`;
    copyAt(cwd, 'a/echo-local', withId);
    copyAt(cwd, 'b/echo-local', withId);
    const run = (at: string) =>
      runCli(['run', at, '--agent', 'oracle', '--mode', 'single', '--output', 'evals', '--baseline', 'auto'], { cwd });
    expect((await run('a/echo-local')).code).toBe(0);
    const second = await run('b/echo-local');
    expect(second.stderr).not.toMatch(WARNING);
    expect(second.stderr).toMatch(/baseline: \S+\/evals\/oracle\/echo-local\/\d/);
  });
});
