// `benchrig init NAME [--template qa|sandbox|harbor]` scaffolds a benchmark that works as generated:
// validate accepts it, the oracle passes it (exit 0) and nop fails it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';
import { defined } from '../support/defined.ts';

const hasDocker = await requireDocker();

describe('benchrig init', () => {
  it('scaffolds benchmarks/NAME with a sandbox path relative to it, which validate accepts; an existing folder is refused', async () => {
    const project = tempDir();
    const r = await runCli(['init', 'my-bench', '--dir', project]);
    expect(r.code, r.stderr).toBe(0);
    const dir = join(project, 'benchmarks/my-bench');
    const toml = readFileSync(join(dir, 'benchmark.toml'), 'utf8');
    const build = defined(/^build = "([^"]+)"/m.exec(toml))[1];
    expect(existsSync(join(dir, build, 'Dockerfile'))).toBe(true);
    expect(toml).toContain('image = "benchrig/busybox:1"');
    expect(toml).toContain('type = "sandbox_test"');
    expect(toml).toMatch(/\[gate\]\nmetric = "pass_rate"/);
    const rows = readFileSync(join(dir, 'data/tasks.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(2);
    for (const row of rows)
      expect(Object.keys(row)).toEqual(expect.arrayContaining(['id', 'input', 'files', 'solution', 'tests']));

    const v = await runCli(['validate', dir]);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout).toContain('ok: my-bench — 2 samples');

    const again = await runCli(['init', 'my-bench', '--dir', project]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already exists');
    expect((await runCli(['init', '../escape', '--dir', project])).code).toBe(2);
  });

  it('a project with its own sandboxes/busybox gets build = "../../sandboxes/busybox"', async () => {
    const project = tempDir();
    const { initBenchmark } = await import('../../src/benchmark/init.ts');
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(join(project, 'sandboxes/busybox'), { recursive: true });
    writeFileSync(join(project, 'sandboxes/busybox/Dockerfile'), 'FROM scratch\n');
    const made = await initBenchmark('here', { dir: project });
    expect(readFileSync(join(made.dir, 'benchmark.toml'), 'utf8')).toContain('build = "../../sandboxes/busybox"');
  });

  it.skipIf(!hasDocker)(
    'the oracle passes every generated sample (exit 0), nop none (exit 1), and validate --run agrees',
    async () => {
      const project = tempDir();
      expect((await runCli(['init', 'scaffold', '--template', 'sandbox', '--dir', project])).code).toBe(0);
      const bench = join(project, 'benchmarks/scaffold');
      const out = join(project, 'evals');
      const oracle = await runCli(['run', bench, '--agent', 'oracle', '--mode', 'single', '--output', out, '--quiet']);
      const oracleDir = onlyRunDir(out, 'oracle', 'scaffold');
      expect(results(oracleDir).map((x) => [x.sample_id, x.status, x.checks[0]?.reason])).toEqual([
        ['count-words', 'PASSED', expect.any(String)],
        ['greet-names', 'PASSED', expect.any(String)],
      ]);
      expect(oracle.code, oracle.stderr).toBe(0);
      const nop = await runCli(['run', bench, '--agent', 'nop', '--mode', 'single', '--output', out, '--quiet']);
      expect(nop.code).toBe(1);
      expect(readJson(join(onlyRunDir(out, 'nop', 'scaffold'), 'evaluation_report.json')).metrics.pass_rate).toBe(0);

      const v = await runCli(['validate', bench, '--run'], { cwd: project });
      expect(v.code, `${v.stdout}\n${v.stderr}`).toBe(0);
    },
    300_000,
  );

  it('--template qa: a Q&A benchmark without a sandbox whose solutions are replies; the oracle passes, nop fails', async () => {
    const project = tempDir();
    const r = await runCli(['init', 'quiz', '--template', 'qa', '--dir', project]);
    expect(r.code, r.stderr).toBe(0);
    const bench = join(project, 'benchmarks/quiz');
    const toml = readFileSync(join(bench, 'benchmark.toml'), 'utf8');
    expect(toml).not.toContain('[sandbox]');
    const rows = readFileSync(join(bench, 'data/questions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    for (const row of rows) expect(Object.keys(row.solution)).toEqual(['reply']);
    const v = await runCli(['validate', bench]);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout).toContain(`ok: quiz — ${rows.length} samples`);
    const out = join(project, 'evals');
    const oracle = await runCli(['run', bench, '--agent', 'oracle', '--output', out, '--quiet']);
    expect(oracle.code, oracle.stderr).toBe(0);
    expect(results(onlyRunDir(out, 'oracle', 'quiz')).map((x) => x.status)).toEqual(rows.map(() => 'PASSED'));
    const nop = await runCli(['run', bench, '--agent', 'nop', '--output', out, '--quiet']);
    expect(nop.code).toBe(1);
    expect(results(onlyRunDir(out, 'nop', 'quiz')).map((x) => x.status)).toEqual(rows.map(() => 'FAILED'));
    expect((await runCli(['init', 'other', '--template', 'quiz', '--dir', project])).code).toBe(2);
  });

  it.skipIf(!hasDocker)(
    '--template harbor: a Harbor task folder that validate accepts and the oracle passes in Docker; nop fails',
    async () => {
      const project = tempDir();
      const r = await runCli(['init', 'hello', '--template', 'harbor', '--dir', project]);
      expect(r.code, r.stderr).toBe(0);
      const task = join(project, 'benchmarks/hello');
      for (const f of ['task.toml', 'instruction.md', 'environment/Dockerfile', 'tests/test.sh', 'solution/solve.sh'])
        expect(existsSync(join(task, f)), f).toBe(true);
      expect(readFileSync(join(task, 'tests/test.sh'), 'utf8')).toContain('/logs/verifier/reward.txt');
      const v = await runCli(['validate', task]);
      expect(v.code, v.stderr).toBe(0);
      expect(v.stdout).toContain('ok: hello — 1 sample, 1 check');
      expect(v.stdout + v.stderr).not.toContain('ignored key');
      const out = join(project, 'evals');
      const oracle = await runCli(['run', task, '--agent', 'oracle', '--output', out, '--quiet']);
      expect(oracle.code, oracle.stderr).toBe(0);
      const [passed] = results(onlyRunDir(out, 'oracle', 'hello'));
      expect([passed.status, passed.checks[0]?.type, passed.score]).toEqual(['PASSED', 'reward', 1]);
      const nop = await runCli(['run', task, '--agent', 'nop', '--output', out, '--quiet']);
      expect(nop.stderr).not.toMatch(/\n\s+at /);
      expect(results(onlyRunDir(out, 'nop', 'hello')).map((x) => x.status)).toEqual(['FAILED']);
    },
    300_000,
  );
});
