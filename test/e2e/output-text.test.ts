// Output a person reads (issue #40 item 5), through the real CLI on sandbox-less fixtures: counts in
// words, `list` kept a table when a benchmark fails to load, "missing" rather than zod's
// "received undefined", and "did you mean" for a mistyped check type or agent.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempDir } from '../support/cli.ts';

/** A project folder with benchmarks/<name> copies of echo-local, each changed by its edit of the toml. */
function project(edits: Record<string, (toml: string) => string>): string {
  const dir = tempDir();
  for (const [name, edit] of Object.entries(edits)) {
    const b = join(dir, 'benchmarks', name);
    mkdirSync(join(dir, 'benchmarks'), { recursive: true });
    cpSync(join(FIXTURES, 'benchmarks/echo-local'), b, { recursive: true });
    const toml = join(b, 'benchmark.toml');
    writeFileSync(toml, edit(readFileSync(toml, 'utf8').replace('name = "echo-local"', `name = "${name}"`)));
  }
  return dir;
}

describe('output a person reads', () => {
  it('validate says "1 sample" and "1 check"', async () => {
    const cwd = project({ one: (t) => t });
    writeFileSync(join(cwd, 'benchmarks/one/data.jsonl'), '{"id":"a","input":"say hi","expected":"hi"}\n');
    const r = await runCli(['validate', 'one'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/ok: one — 1 sample, 1 check \(mentions it\)/);
  });

  it('list stays a table when a benchmark does not load; the error is below it', async () => {
    const cwd = project({ good: (t) => t, broken: (t) => t.replace('type = "contains"', 'type = "containz"') });
    const r = await runCli(['list', 'benchmarks'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    const [head, ...rest] = r.stdout.split('\n\n');
    const rows = head.split('\n');
    expect(rows[0]).toMatch(/^BENCHMARK\s+SAMPLES\s+VERSION/);
    expect(rows.find((l) => l.startsWith('broken'))).toMatch(
      /^broken\s+-\s+invalid\s+benchmarks\/broken\s+\(see below\)$/,
    );
    expect(rows.some((l) => l.startsWith('good'))).toBe(true);
    // The error is below, naming the benchmark; "did you mean" names the check type.
    expect(rest.join('\n')).toMatch(/^broken: .*unknown check type "containz"; did you mean "contains"\?/m);
  });

  it('an unknown agent gets "did you mean"; a missing key is said "missing"', async () => {
    const cwd = project({ one: (t) => t, nameless: (t) => t.replace('type = "contains"', '') });
    const agent = await runCli(['run', 'one', '--agent', 'oracel'], { cwd });
    expect(agent.code).toBe(2);
    expect(agent.stderr).toContain('unknown agent "oracel"; did you mean "oracle"?');
    const missing = await runCli(['validate', 'nameless'], { cwd });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('key checks[0].type: required key is missing (expected string)');
    expect(missing.stderr).not.toContain('received undefined');
  });
});
