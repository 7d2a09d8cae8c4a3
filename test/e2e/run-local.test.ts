// The real CLI on a benchmark without a sandbox: verdicts, files, ground truth, bad input.
import { existsSync, mkdirSync, readdirSync, writeFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { BIN, FIXTURES, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { defined } from '../support/defined.ts';

const bench = join(FIXTURES, 'benchmarks/echo-local');
const agent = (name: string) => join(FIXTURES, 'agents', `${name}.ts`);

describe('benchrig run without a sandbox', () => {
  it('runs the oracle, grades against ground truth and writes every output file', async () => {
    const out = tempDir();
    const r = await runCli(['run', bench, '--agent', 'oracle', '--mode', 'single', '--output', out]);
    // sample d expects "grape" but the oracle has no solution and replies its expected: it passes;
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+/); // no stack trace
    const dir = onlyRunDir(out, 'oracle', 'echo-local');
    const runJson = readJson(join(dir, 'run.json'));
    expect(runJson).toMatchObject({ status: 'complete', mode: 'single', agent: { id: 'oracle', name: 'oracle' } });
    expect(runJson.benchmark.version).toMatch(/^[0-9a-f]{16}$/);
    const report = readJson(join(dir, 'evaluation_report.json'));
    for (const key of [
      'schema_version',
      'benchmark',
      'agent',
      'run',
      'metrics',
      'checks',
      'tasks',
      'gate',
      'comparison',
      'top_failures',
      'top_successes',
    ])
      expect(report).toHaveProperty(key);
    expect(report.metrics.pass_rate).toBe(1);
    expect(report.gate).toMatchObject({ metric: 'pass_rate', passed: true });
    expect(r.code).toBe(0);
    const rs = results(dir);
    expect(rs.map((x) => x.task_id).sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(defined(rs.find((x) => x.task_id === 'b')).response).toBe('banana!');
    for (const name of ['a', 'b', 'c', 'd']) expect(existsSync(join(dir, 'logs', `${name}.log`))).toBe(true);
    expect(readdirSync(join(dir, 'results')).every((f) => f.endsWith('.json'))).toBe(true); // no temp files left
  });

  it('counts a throwing agent against its own trial only, and fails the gate', async () => {
    const out = tempDir();
    const r = await runCli(['run', bench, '--agent', agent('crash'), '--mode', 'single', '--output', out, '--quiet']);
    const dir = onlyRunDir(out, 'crash', 'echo-local');
    const byId = Object.fromEntries(results(dir).map((x) => [x.sample_id, x]));
    expect(byId.c.status).toBe('AGENT_ERROR');
    expect(defined(byId.c.error).message).toContain('deliberate failure on c');
    expect(byId.a.status).toBe('PASSED'); // echo of "say apple" contains "apple"
    expect(byId.d.status).toBe('FAILED');
    const report = readJson(join(dir, 'evaluation_report.json'));
    expect(report.metrics.pass_rate).toBe(0.5);
    expect(report.metrics.agent_error_rate).toBe(0.25);
    expect(r.code).toBe(0); // 0.5 >= threshold 0.5
    expect(r.stdout).toMatch(/pass rate/i);
  });

  it('an error the agent throws is AGENT_ERROR, whatever its type', async () => {
    const out = tempDir();
    await runCli(['run', bench, '--agent', agent('crash'), '--sample', 'c', '--mode', 'single', '--output', out]);
    const [r] = results(onlyRunDir(out, 'crash', 'echo-local'));
    expect(r.status).toBe('AGENT_ERROR');
    expect(defined(r.error).message).toMatch(/crash agent: deliberate failure on c/);
  });

  it('a command solution in a benchmark without a sandbox is refused by validate and run, naming the row', async () => {
    const dir = join(tempDir(), 'bench');
    cpSync(bench, dir, { recursive: true });
    writeFileSync(
      join(dir, 'data.jsonl'),
      '{"id":"a","input":"x","expected":"x","solution":{"reply":"x"}}\n{"id":"b","input":"y","expected":"y","solution":"echo y"}\n',
    );
    const v = await runCli(['validate', dir]);
    expect(v.code).toBe(2);
    expect(v.stderr).toMatch(/data\.jsonl:2: field solution holds commands, but the benchmark has no \[sandbox\]/);
    expect(v.stderr).toContain('{"reply": "..."}');
    expect(v.stderr).not.toMatch(/at .*\.ts:\d+/);
    const out = tempDir();
    const r = await runCli(['run', dir, '--agent', 'oracle', '--mode', 'single', '--output', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/data\.jsonl:2: field solution holds commands/);
    expect(existsSync(join(out, 'oracle'))).toBe(false); // refused before any run folder
    // {"commands": [...]} needs a sandbox too; {"reply": ...} alone is fine
    writeFileSync(join(dir, 'data.jsonl'), '{"id":"c","input":"z","expected":"z","solution":{"commands":["true"]}}\n');
    expect((await runCli(['validate', dir])).stderr).toMatch(/data\.jsonl:1: field solution holds commands/);
    writeFileSync(join(dir, 'data.jsonl'), '{"id":"c","input":"z","expected":"z","solution":{"reply":"z"}}\n');
    expect((await runCli(['validate', dir])).code).toBe(0);
  });

  it("a benchmark hook that hangs is bounded by the trial timeout and is not the agent's failure", async () => {
    const dir = join(tempDir(), 'bench');
    cpSync(bench, dir, { recursive: true });
    writeFileSync(join(dir, 'hooks.ts'), 'export function collect() {\n  return new Promise(() => {});\n}\n');
    const out = tempDir();
    const t0 = Date.now();
    await runCli([
      'run',
      dir,
      '--agent',
      'oracle',
      '--mode',
      'single',
      '--limit',
      '1',
      '--trial-timeout',
      '1',
      '--output',
      out,
    ]);
    expect(Date.now() - t0).toBeLessThan(30_000);
    const [r] = results(onlyRunDir(out, 'oracle', 'echo-local'));
    expect(r.status).toBe('SANDBOX_ERROR');
    expect(defined(r.error).message).toBe('the collect hook did not finish within 1 s');
  });

  it('never shows ground truth to an agent other than the oracle', async () => {
    const out = tempDir();
    await runCli(['run', bench, '--agent', agent('peek'), '--mode', 'single', '--output', out, '--quiet']);
    const dir = onlyRunDir(out, 'peek', 'echo-local');
    for (const res of results(dir)) {
      const seen = JSON.parse(res.response);
      expect(Object.keys(seen.sample).sort()).toEqual(['id', 'input', 'metadata']);
      expect(res.response).not.toMatch(/"expected"|"solution"|banana!|grape/);
    }
    const d = defined(results(dir).find((x) => x.sample_id === 'd'));
    expect(JSON.parse(d.response).sample.metadata).toEqual({ extra_col: 7 }); // unmapped columns land in metadata
  });

  it('filters with --sample and --limit, and names the run folder by --agent-id', async () => {
    const out = tempDir();
    await runCli(['run', bench, '--agent', 'oracle', '--sample', 'b,d', '--agent-id', 'my-oracle', '--output', out]);
    const dir = onlyRunDir(out, 'my-oracle', 'echo-local');
    expect(
      results(dir)
        .map((x) => x.sample_id)
        .sort(),
    ).toEqual(['b', 'd']);
    expect(readJson(join(dir, 'run.json')).mode).toBe('single'); // --sample without --mode runs single
  });

  it('writes -t<k> result files for --trials', async () => {
    const out = tempDir();
    await runCli([
      'run',
      bench,
      '--agent',
      'oracle',
      '--mode',
      'single',
      '--trials',
      '2',
      '--limit',
      '1',
      '--output',
      out,
    ]);
    const dir = onlyRunDir(out, 'oracle', 'echo-local');
    expect(readdirSync(join(dir, 'results')).sort()).toEqual(['a-t1.json', 'a-t2.json']);
  });
});

describe('seeing a run', () => {
  it('--verbose streams every trial event as it happens', async () => {
    const out = tempDir();
    const r = await runCli(['run', bench, '--agent', agent('echo'), '--sample', 'a', '--verbose', '--output', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/a .*user: say apple/);
    expect(r.stderr).toMatch(/a .*agent \(done\): say apple/);
    expect(r.stderr).toMatch(/a .*check mentions it: pass/);
  });

  it('--log-level warn keeps trials that did not pass; error keeps only trials that ended in an error', async () => {
    const out = tempDir();
    const warn = await runCli([
      'run',
      bench,
      '--agent',
      agent('crash'),
      '--mode',
      'single',
      '--log-level',
      'warn',
      '--output',
      out,
    ]);
    expect(warn.stderr).not.toMatch(/PASSED/);
    expect(warn.stderr).toMatch(/FAILED\s+d /);
    expect(warn.stderr).toMatch(/AGENT_ERROR\s+c /);
    const error = await runCli([
      'run',
      bench,
      '--agent',
      agent('crash'),
      '--mode',
      'single',
      '--log-level',
      'error',
      '--output',
      out,
    ]);
    expect(error.stderr).not.toMatch(/FAILED\s+d /);
    expect(error.stderr).toMatch(/AGENT_ERROR\s+c /);
    const debug = await runCli([
      'run',
      bench,
      '--agent',
      agent('crash'),
      '--sample',
      'a',
      '--log-level',
      'debug',
      '--output',
      out,
    ]);
    expect(debug.stderr).toMatch(/user: say apple/); // debug streams events like --verbose
  });

  it('shows a live progress line on a terminal; piped, the trials that did not pass and the progress as a line', async () => {
    const out = tempDir();
    const cmd = `node ${BIN} run ${bench} --agent ${agent('echo')} --mode single --output ${out}`;
    const tty = await execa('script', ['-qec', cmd, '/dev/null'], {
      reject: false,
      env: { NO_COLOR: '1' },
      timeout: 120_000,
    });
    expect(String(tty.stdout)).toMatch(/\[4\/4\] 3 passing · 1 failed · 0 timed out · 0 errors · 0 in flight · ETA/);
    expect(String(tty.stdout)).not.toMatch(/PASSED {10}a \(/); // passing trials get no line of their own
    const plain = await runCli(['run', bench, '--agent', agent('echo'), '--mode', 'single', '--output', out]);
    expect(plain.stderr).toMatch(/\[4\/4\] FAILED\s+d \(/);
    expect(plain.stderr).not.toMatch(/PASSED\s+a \(/);
    expect(plain.stderr.split('\n')).toContain(
      '[4/4] 3 passing · 1 failed · 0 timed out · 0 errors · 0 in flight · ETA 0:00',
    );
    expect(plain.stderr).not.toContain('\r'); // a plain line, not redrawn
    // --no-progress: a line for every trial instead
    const each = await runCli([
      'run',
      bench,
      '--agent',
      agent('echo'),
      '--mode',
      'single',
      '--no-progress',
      '--output',
      out,
    ]);
    expect(each.stderr).toMatch(/\[1\/4\] PASSED\s+a \(/);
    expect(each.stderr).toMatch(/\[4\/4\] FAILED\s+d \(/);
    expect(each.stderr).not.toMatch(/ passing · /);
  });
});

describe('TypeScript agents load without a build step', () => {
  it.each(['single', 'threads', 'processes'])(
    'from a folder outside any ES-module package, in %s mode',
    async (mode) => {
      const dir = tempDir(); // no package.json: Node would load a .ts file here as CommonJS
      writeFileSync(
        join(dir, 'typed.ts'),
        'interface Reply { content: string; done: boolean }\n' +
          'export default function createAgent(): { respond(m: string): Promise<Reply> } {\n' +
          '  return { respond: async (m: string): Promise<Reply> => ({ content: m, done: true }) };\n}\n',
      );
      const out = tempDir();
      const r = await runCli([
        'run',
        bench,
        '--agent',
        join(dir, 'typed.ts'),
        '--mode',
        mode,
        '--workers',
        '2',
        '--output',
        out,
        '--quiet',
      ]);
      const rs = results(onlyRunDir(out, 'typed', 'echo-local'));
      expect(
        rs.filter((x) => x.status === 'AGENT_ERROR').map((x) => defined(x.error).message),
        r.stderr,
      ).toEqual([]);
      expect(rs.filter((x) => x.status === 'PASSED')).toHaveLength(3); // echo: a, b and c contain their expected text
    },
  );
});

describe('bad input: one clear message, exit 2, no run folder', () => {
  const copyBench = (mutate: (dir: string) => void) => {
    const dir = join(tempDir(), 'bench');
    cpSync(bench, dir, { recursive: true });
    mutate(dir);
    return dir;
  };
  const expectRejected = async (benchDir: string, pattern: RegExp, extra: string[] = []) => {
    const out = tempDir();
    const r = await runCli(['run', benchDir, '--agent', 'oracle', '--mode', 'single', '--output', out, ...extra]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(pattern);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(readdirSync(out)).toEqual([]);
    return r;
  };

  it('a malformed dataset row names the file and line', async () => {
    const dir = copyBench((d) =>
      writeFileSync(join(d, 'data.jsonl'), '{"id":"a","input":"x","expected":"x"}\n{"id": "b", "input": \n'),
    );
    await expectRejected(dir, /data\.jsonl:2/);
  });

  it('a duplicate id names both lines', async () => {
    const dir = copyBench((d) =>
      writeFileSync(
        join(d, 'data.jsonl'),
        '{"id":"a","input":"x","expected":"x"}\n{"id":"a","input":"y","expected":"y"}\n',
      ),
    );
    await expectRejected(dir, /duplicate.*"?a"?/i);
  });

  it('a row without an id is an error, not auto-numbered', async () => {
    const dir = copyBench((d) => writeFileSync(join(d, 'data.jsonl'), '{"input":"x","expected":"x"}\n'));
    await expectRejected(dir, /data\.jsonl:1.*id/);
  });

  it('an unknown config key names the file and key', async () => {
    const dir = copyBench((d) =>
      writeFileSync(
        join(d, 'benchmark.toml'),
        '[dataset]\nsource = "data.jsonl"\n[limits]\nmax_turnz = 3\n[[checks]]\ntype = "contains"\n',
      ),
    );
    await expectRejected(dir, /benchmark\.toml.*max_turnz/);
  });

  it('an unknown check type, and a check missing its input, are refused at load', async () => {
    await expectRejected(
      copyBench((d) =>
        writeFileSync(join(d, 'benchmark.toml'), '[dataset]\nsource = "data.jsonl"\n[[checks]]\ntype = "telepathy"\n'),
      ),
      /telepathy/,
    );
    const noExpected = copyBench((d) =>
      writeFileSync(join(d, 'data.jsonl'), '{"id":"a","input":"x","expected":"x"}\n{"id":"b","input":"y"}\n'),
    );
    await expectRejected(noExpected, /\bb\b/);
  });

  it('a lower-is-better gate metric is refused', async () => {
    const dir = copyBench((d) =>
      writeFileSync(
        join(d, 'benchmark.toml'),
        '[dataset]\nsource = "data.jsonl"\n[[checks]]\ntype = "contains"\n[gate]\nmetric = "agent_error_rate"\nthreshold = 0.1\n',
      ),
    );
    await expectRejected(dir, /agent_error_rate/);
  });

  it('an unset ${VAR} names the variable', async () => {
    const cfg = join(tempDir(), 'extra.toml');
    writeFileSync(cfg, '[llm]\napi_key = "${BENCHRIG_TEST_SURELY_UNSET}"\n');
    await expectRejected(bench, /extra\.toml.*BENCHRIG_TEST_SURELY_UNSET/, ['--config', cfg]);
  });

  it('an unknown agent and a bad flag value are usage errors', async () => {
    const out = tempDir();
    const agent = await runCli(['run', bench, '--agent', 'telepath', '--mode', 'single', '--output', out]);
    expect(agent.code).toBe(2);
    expect(agent.stderr).toMatch(/unknown agent "telepath"/);
    expect(readdirSync(out)).toEqual([]);
    const r = await runCli(['run', bench, '--mode', 'sideways', '--output', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/sideways/);
  });

  it("the benchmark's own code is loaded before anything runs: a broken hooks.ts or user module is exit 2", async () => {
    const broken = copyBench((d) => writeFileSync(join(d, 'hooks.ts'), 'export const checks = {;\n'));
    await expectRejected(broken, /hooks\.ts: cannot be loaded/);
    const noUser = copyBench((d) =>
      writeFileSync(
        join(d, 'benchmark.toml'),
        '[dataset]\nsource = "data.jsonl"\n[user]\nkind = "module"\nmodule = "missing.ts#user"\n[[checks]]\ntype = "contains"\n',
      ),
    );
    await expectRejected(noUser, /key user\.module/);
    const noCheck = copyBench((d) => {
      writeFileSync(join(d, 'hooks.ts'), 'export const checks = {};\n');
      writeFileSync(
        join(d, 'benchmark.toml'),
        '[dataset]\nsource = "data.jsonl"\n[[checks]]\ntype = "custom"\nfunction = "judged"\n',
      );
    });
    await expectRejected(noCheck, /checks\[0\]\.function: hooks export no function checks\.judged/);
  });

  it('an unknown benchmark name says what was tried', async () => {
    const r = await runCli(['run', 'no-such-benchmark', '--agent', 'oracle'], { cwd: tempDir() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no-such-benchmark/);
  });
});

describe('benchrig list, validate, config show', () => {
  it('lists benchmarks with sample counts and versions, and validates one', async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, 'benchmarks'));
    cpSync(bench, join(cwd, 'benchmarks/echo-local'), { recursive: true });
    const list = await runCli(['list'], { cwd });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/echo-local\s+4\s+[0-9a-f]{16}/);
    const v = await runCli(['validate', 'echo-local'], { cwd });
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/4 samples.*version [0-9a-f]{16}/);
  });

  it('shows the effective configuration with ${VAR} expanded and secrets redacted', async () => {
    const r = await runCli(['config', 'show', bench], {
      env: { BENCHRIG_MODEL: 'model-from-env', OPENAI_API_KEY: 'sk-very-secret' },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('model-from-env');
    expect(r.stdout).not.toContain('sk-very-secret');
    expect(r.stdout).toMatch(/\[\[checks\]\]/);
  });
});
