// `benchrig evaluate` on a sandboxed run (real Docker for the run only): no sandbox is started
// again, sandbox_test verdicts are kept from the saved outputs, and the report is reproduced.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchrigContainers, requireDocker } from '../support/docker.ts';
import { FIXTURES, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';

const hasDocker = await requireDocker();
const mini = join(FIXTURES, 'benchmarks/mini-shell');
const agent = (name: string) => join(FIXTURES, 'agents', `${name}.ts`);

describe.skipIf(!hasDocker)('benchrig evaluate on a sandboxed run', () => {
  it('keeps sandbox_test verdicts from saved artifacts and reproduces the report', async () => {
    const out = tempDir();
    // The shell agent runs the input as a command: "hang and crash here…" fails its test.
    await runCli(['run', mini, '--agent', agent('shell'), '--mode', 'single', '--output', out, '--quiet']);
    const dir = onlyRunDir(out, 'shell', 'mini-shell');
    const before = readJson(join(dir, 'evaluation_report.json'));
    const saved = results(dir);
    expect(saved.map((r) => [r.sample_id, r.status]).sort()).toEqual([
      ['count', 'PASSED'],
      ['greet', 'PASSED'],
      ['hang-or-crash', 'FAILED'],
    ]);
    expect(saved.every((r) => r.artifacts['sandbox_test:tests pass'])).toBe(true);
    const mtimes = readdirSync(join(dir, 'results')).map((f) => statSync(join(dir, 'results', f)).mtimeMs);

    const r = await runCli(['evaluate', dir]);
    expect(r.stderr).toContain(`re-graded ${saved.length} trial(s): 0 result file(s) changed`);
    expect(r.code).toBe(before.gate.passed ? 0 : 1);
    const after = readJson(join(dir, 'evaluation_report.json'));
    for (const key of ['metrics', 'checks', 'tasks', 'gate', 'top_failures', 'top_successes'])
      expect(after[key], key).toEqual(before[key]);
    expect(results(dir).map((x) => x.checks)).toEqual(saved.map((x) => x.checks));
    expect(readdirSync(join(dir, 'results')).map((f) => statSync(join(dir, 'results', f)).mtimeMs)).toEqual(mtimes);
    expect(await benchrigContainers(readJson(join(dir, 'run.json')).run_id)).toEqual([]);
  }, 300_000);
});
