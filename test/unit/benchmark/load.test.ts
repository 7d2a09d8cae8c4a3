import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../../src/benchmark/load.ts';
import { FIXTURES, fixture, tempBenchmark, userError } from './helpers.ts';

const env = {};
const TASKS = '{"id": "t1", "input": "one", "expected": "1"}\n{"id": "t2", "input": "two", "expected": "2"}\n';

describe('loadBenchmark', () => {
  it('loads a folder: name, mapped samples, named checks, layers, hooks and version', async () => {
    const b = await loadBenchmark(fixture('cfg-basic'), { env });
    expect(b.name).toBe('cfg-basic');
    expect(b.description).toBe('JSONL fixture with field mapping');
    expect(b.dir).toBe(fixture('cfg-basic'));
    expect(b.samples.map((s) => s.id)).toEqual(['a1', '2', 'a3', 'a4', 'a5']);
    expect(b.nSamplesTotal).toBe(5);
    expect(b.samples[0]).toMatchObject({
      input: 'Count the files',
      expected: '3',
      files: 'files/t1',
      metadata: { difficulty: 'easy' },
    });
    expect(b.samples[1].metadata).toEqual({ difficulty: 'easy', topic: 'greeting' });
    expect(b.checks.map((c) => c.name)).toEqual(['contains', 'contains-2', 'regex']);
    expect(b.config.checks.map((c) => c.name)).toEqual(['contains', 'contains-2', 'regex']);
    expect(b.config.limits.max_turns).toBe(3);
    expect(b.config.user).toMatchObject({ kind: 'scripted', continuation: 'Please continue.' });
    expect(b.hooks).toBe(path.join(fixture('cfg-basic'), 'hooks.ts'));
    expect(b.dataset.source).toBe('data/tasks.jsonl');
    expect(b.version).toMatch(/^[0-9a-f]{16}$/);
  });

  it('finds a benchmark by name under <cwd>/benchmarks', async () => {
    const b = await loadBenchmark('cfg-json', { cwd: path.dirname(FIXTURES), env });
    expect(b.dir).toBe(fixture('cfg-json'));
    expect(b.samples).toEqual([
      { id: 'j1', input: 'first', metadata: {} },
      { id: 'j2', input: 'second', metadata: { level: 2 } },
    ]);
    expect(b.hooks).toBeUndefined();
  });

  it("finds a built-in benchmark by name from a project that has none, and a project's own of that name first", async () => {
    const project = path.dirname(tempBenchmark({}));
    const builtIn = await loadBenchmark('shell-tasks', { cwd: project, env });
    expect(builtIn.dir).toBe(fileURLToPath(new URL('../../../benchmarks/shell-tasks', import.meta.url)));
    expect(builtIn.nSamplesTotal).toBe(36);

    const own = path.join(project, 'benchmarks', 'shell-tasks');
    tempBenchmarkAt(own, { 'benchmark.toml': '[dataset]\nsource = "d.jsonl"\n', 'd.jsonl': TASKS });
    const mine = await loadBenchmark('shell-tasks', { cwd: project, env });
    expect([mine.dir, mine.nSamplesTotal]).toEqual([own, 2]);
  });

  it('names what it tried when the benchmark does not exist', async () => {
    const cwd = path.dirname(FIXTURES);
    const msg = await userError(loadBenchmark('no-such-bench', { cwd, env }), 'usage');
    expect(msg).toContain('benchmark "no-such-bench" not found: tried');
    expect(msg).toContain(path.join('benchmarks', 'no-such-bench', 'benchmark.toml'));
  });

  it('reads a CSV dataset with quoted fields and JSON cells through the field mapping', async () => {
    const b = await loadBenchmark(fixture('cfg-csv'), { env });
    expect(b.samples).toEqual([
      {
        id: '1',
        input: 'Hello, world',
        expected: 'hi, there',
        tests: { 't.sh': 'exit 0' },
        setup: ['echo a'],
        metadata: { notes: 'plain' },
      },
      { id: '2', input: 'Line one\nline two', expected: 'say "quoted"', metadata: { notes: 'multi\nline note' } },
      { id: '3', input: 'simple', expected: 'x', metadata: { notes: '' } },
    ]);
  });

  it('expands ${VAR} in benchmark.toml and applies --config, environment and flags over it', async () => {
    const cfg = tempBenchmark({ 'extra.toml': '[limits]\nmax_llm_calls = 11\n' });
    const b = await loadBenchmark(fixture('cfg-basic'), {
      env: { CFG_CONTINUATION: 'go on', BENCHRIG_LIMITS__MAX_TURNS: '4' },
      configFile: path.join(cfg, 'extra.toml'),
      flags: { run: { mode: 'single' } },
    });
    expect(b.config.user.continuation).toBe('go on');
    expect(b.config.limits).toMatchObject({ max_turns: 4, max_llm_calls: 11 });
    expect(b.config.run.mode).toBe('single');
  });

  it('resolves [sandbox] build and shared source to absolute folders', async () => {
    const b = await loadBenchmark(fixture('cfg-sandbox'), { env });
    expect(b.config.sandbox?.build).toBe(path.join(fixture('cfg-sandbox'), 'docker'));
    expect(b.config.sandbox?.shared?.source).toBe(path.join(fixture('cfg-sandbox'), 'shared'));
  });

  it('refuses a sandbox build folder that does not exist or has no Dockerfile', async () => {
    let dir = tempBenchmark({
      'benchmark.toml': '[dataset]\nsource = "t.jsonl"\n[sandbox]\nimage = "x"\nbuild = "../nowhere"\n',
      't.jsonl': TASKS,
    });
    expect(await userError(loadBenchmark(dir, { env }), 'benchmark')).toMatch(
      /benchmark\.toml: key sandbox\.build: folder "\.\.\/nowhere" not found/,
    );
    dir = tempBenchmark({
      'benchmark.toml': '[dataset]\nsource = "t.jsonl"\n[sandbox]\nimage = "x"\nbuild = "ctx"\n',
      't.jsonl': TASKS,
      'ctx/README': '',
    });
    expect(await userError(loadBenchmark(dir, { env }))).toMatch(/key sandbox\.build: folder "ctx" has no Dockerfile/);
  });

  it('[sandbox] subnet_pool: checked at load naming the file and key, and not part of the version', async () => {
    const toml = (pool: string) => `[dataset]\nsource = "t.jsonl"\n[sandbox]\nimage = "benchrig/busybox:1"\n${pool}`;
    const plain = await loadBenchmark(tempBenchmark({ 'benchmark.toml': toml(''), 't.jsonl': TASKS }), { env });
    const pooled = await loadBenchmark(
      tempBenchmark({ 'benchmark.toml': toml('subnet_pool = "10.98.0.0/20"\n'), 't.jsonl': TASKS }),
      { env },
    );
    expect(pooled.config.sandbox?.subnet_pool).toBe('10.98.0.0/20');
    expect(pooled.version).toBe(plain.version); // the machine's setting, not the benchmark's
    for (const [pool, why] of [
      ['10.98.0.1/20', 'is not a network address; did you mean 10.98.0.0/20?'],
      ['10.98.0.0/30', 'must be between a /8 and a /28'],
      ['ten/8', 'is not an IPv4 range'],
      ['127.0.0.0/16', 'overlaps 127.0.0.0/8 (loopback)'],
    ]) {
      const dir = tempBenchmark({ 'benchmark.toml': toml(`subnet_pool = "${pool}"\n`), 't.jsonl': TASKS });
      const msg = await userError(loadBenchmark(dir, { env }), 'config');
      expect(msg).toMatch(/benchmark\.toml: key sandbox\.subnet_pool: /);
      expect(msg).toContain(why);
    }
  });

  it('refuses a benchmark without a [dataset] table', async () => {
    const dir = tempBenchmark({ 'benchmark.toml': 'name = "x"\n' });
    expect(await userError(loadBenchmark(dir, { env }), 'benchmark')).toMatch(
      /benchmark\.toml: missing \[dataset\] table/,
    );
  });

  it('names the row of a bad dataset row and both rows of a duplicate id', async () => {
    const dir = tempBenchmark({
      'benchmark.toml': '[dataset]\nsource = "t.jsonl"\n',
      't.jsonl': '{"id": "a", "input": "x"}\n{"input": "no id"}\n',
    });
    expect(await userError(loadBenchmark(dir, { env }), 'dataset')).toMatch(/bench\/t\.jsonl:2: field id is missing/);
    const dup = await userError(loadBenchmark(fixture('bad-duplicate-id'), { env }), 'dataset');
    expect(dup).toMatch(
      /^duplicate sample id "d1": .*bad-duplicate-id\/data\/tasks\.jsonl:1 and .*bad-duplicate-id\/data\/tasks\.jsonl:3$/,
    );
  });

  it('filters with --sample, --limit and --shuffle without changing the version', async () => {
    const all = await loadBenchmark(fixture('cfg-basic'), { env });
    const some = await loadBenchmark(fixture('cfg-basic'), { env, sample: ['a5,a1'] });
    expect(some.samples.map((s) => s.id)).toEqual(['a1', 'a5']);
    expect(some.nSamplesTotal).toBe(5);
    expect(some.version).toBe(all.version);
    const limited = await loadBenchmark(fixture('cfg-basic'), { env, shuffle: true, seed: 3, limit: 2 });
    expect(limited.samples).toHaveLength(2);
    expect((await loadBenchmark(fixture('cfg-basic'), { env, shuffle: true, seed: 3, limit: 2 })).samples).toEqual(
      limited.samples,
    );
    expect(await userError(loadBenchmark(fixture('cfg-basic'), { env, sample: ['zz'] }), 'usage')).toMatch(
      /--sample: unknown sample id "zz"/,
    );
  });
});

describe('checks at load', () => {
  it('refuses an unknown check type, naming file, key and the known types', async () => {
    const msg = await userError(loadBenchmark(fixture('bad-check-type'), { env }), 'benchmark');
    expect(msg).toMatch(
      /bad-check-type\/benchmark\.toml: key checks\[1\]\.type: unknown check type "telepathy" \(known: .*contains.*regex/,
    );
  });

  it("prefixes a check's own validation error with file and key", async () => {
    const dir = tempBenchmark({
      'benchmark.toml': '[dataset]\nsource = "t.jsonl"\n[[checks]]\ntype = "regex"\nname = "digits"\n',
      't.jsonl': TASKS,
    });
    expect(await userError(loadBenchmark(dir, { env }), 'benchmark')).toMatch(
      /bench\/benchmark\.toml: key checks\[0\]: .*pattern/,
    );
  });

  it('refuses samples without an input for a check that needs one, listing their ids', async () => {
    const msg = await userError(loadBenchmark(fixture('bad-missing-input'), { env }), 'benchmark');
    expect(msg).toMatch(
      /bad-missing-input\/benchmark\.toml: key checks\[0\]: check "says the number" \(contains\) needs an input, but 2 sample\(s\) have none/,
    );
    expect(msg).toMatch(/: x2, x3$/);
  });

  it('refuses samples without expected_contexts for a retrieval check, listing their ids', async () => {
    const dir = tempBenchmark({
      'benchmark.toml':
        '[dataset]\nsource = "t.jsonl"\n[[checks]]\ntype = "answer_relevancy"\n[[checks]]\ntype = "reciprocal_rank"\nname = "mrr"\n',
      't.jsonl':
        '{"id": "a", "input": "x", "expected_contexts": ["d1"]}\n{"id": "b", "input": "y", "expected": "d2"}\n{"id": "c", "input": "z"}\n',
    });
    expect(await userError(loadBenchmark(dir, { env }), 'benchmark')).toBe(
      `${path.join(dir, 'benchmark.toml')}: key checks[1]: check "mrr" (reciprocal_rank) needs the samples' expected_contexts, but 2 sample(s) have none: b, c`,
    );
  });

  it('accepts a check input from expectations[name] or from the check value', async () => {
    const dir = tempBenchmark({
      'benchmark.toml':
        '[dataset]\nsource = "t.jsonl"\n[[checks]]\ntype = "contains"\nname = "c"\n[[checks]]\ntype = "exact"\nvalue = "ok"\n',
      't.jsonl': '{"id": "a", "input": "x", "expectations": {"c": "y"}}\n',
    });
    expect((await loadBenchmark(dir, { env })).samples).toHaveLength(1);
  });
});

describe('gate at load', () => {
  it('refuses a lower-is-better gate metric', async () => {
    const msg = await userError(loadBenchmark(fixture('bad-gate-metric'), { env }), 'benchmark');
    expect(msg).toMatch(
      /bad-gate-metric\/benchmark\.toml: key gate\.metric: "agent_error_rate" is lower-is-better; .*higher-is-better metrics only/,
    );
    for (const metric of ['safety_violation_rate', 'timeout_rate', 'ungradable_rate', 'over_refusal_rate']) {
      const dir = tempBenchmark({ 'gate.toml': `[gate]\nmetric = "${metric}"\nthreshold = 0.1\n` });
      const m = await userError(loadBenchmark(fixture('cfg-json'), { env, configFile: path.join(dir, 'gate.toml') }));
      expect(m).toMatch(/gate\.toml: key gate\.metric: .*higher-is-better metrics only/);
    }
  });

  it('refuses an unknown gate metric, listing the allowed ones', async () => {
    const dir = tempBenchmark({ 'gate.toml': '[gate]\nmetric = "vibes"\nthreshold = 0.5\n' });
    const msg = await userError(
      loadBenchmark(fixture('cfg-json'), { env, configFile: path.join(dir, 'gate.toml') }),
      'benchmark',
    );
    expect(msg).toMatch(
      /gate\.toml: key gate\.metric: unknown gate metric "vibes" \(allowed: pass_rate, pass_all_k, pass_at_k, mean_score\)/,
    );
  });

  it('max_missing_rate: a number in 0..1, else refused naming the file and the key', async () => {
    const gate = (v: string) =>
      path.join(
        tempBenchmark({ 'gate.toml': `[gate]\nmetric = "pass_rate"\nthreshold = 0.5\nmax_missing_rate = ${v}\n` }),
        'gate.toml',
      );
    const ok = await loadBenchmark(fixture('cfg-json'), { env, configFile: gate('0.25') });
    expect(ok.config.gate).toEqual({ metric: 'pass_rate', threshold: 0.5, max_missing_rate: 0.25 });
    for (const bad of ['1.5', '-0.1']) {
      const msg = await userError(loadBenchmark(fixture('cfg-json'), { env, configFile: gate(bad) }), 'benchmark');
      expect(msg).toMatch(
        new RegExp(`gate\\.toml: key gate\\.max_missing_rate: ${bad.replace('.', '\\.')} is outside 0\\.\\.1`),
      );
    }
    const msg = await userError(loadBenchmark(fixture('cfg-json'), { env, configFile: gate('"most"') }));
    expect(msg).toMatch(/gate\.toml.*gate\.max_missing_rate/);
  });
});

function tempBenchmarkAt(dir: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  }
}
