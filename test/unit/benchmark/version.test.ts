import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../../src/benchmark/load.ts';
import { canonicalJson, inputHash } from '../../../src/benchmark/version.ts';
import { tempBenchmark } from './helpers.ts';

const env = {};
const version = async (dir: string, opts: Parameters<typeof loadBenchmark>[1] = {}) =>
  (await loadBenchmark(dir, { env, ...opts })).version;
const edit = (dir: string, rel: string, fn: (s: string) => string) =>
  writeFileSync(path.join(dir, rel), fn(readFileSync(path.join(dir, rel), 'utf8')));

describe('benchmarkVersion', () => {
  it('is the same for the same content, wherever the folder lives', async () => {
    const a = tempBenchmark({}, 'cfg-basic');
    const b = tempBenchmark({}, 'cfg-basic');
    expect(await version(a)).toBe(await version(b));
    const s1 = tempBenchmark({}, 'cfg-sandbox');
    const s2 = tempBenchmark({}, 'cfg-sandbox');
    expect(await version(s1)).toBe(await version(s2));
  });

  it('changes when a dataset row changes', async () => {
    const a = tempBenchmark({}, 'cfg-basic');
    const b = tempBenchmark({}, 'cfg-basic');
    edit(b, 'data/tasks.jsonl', (s) => s.replace('"answer": "4"', '"answer": "four"'));
    expect(await version(b)).not.toBe(await version(a));
  });

  it('changes when a row is added, even one a filter leaves out', async () => {
    const a = tempBenchmark({}, 'cfg-basic');
    const b = tempBenchmark({}, 'cfg-basic');
    appendFileSync(path.join(b, 'data/tasks.jsonl'), '{"task_id": "a6", "instruction": "new", "answer": "6"}\n');
    expect(await version(b, { sample: ['a1'] })).not.toBe(await version(a, { sample: ['a1'] }));
  });

  it('changes when a check, the gate or a limit changes', async () => {
    const base = await version(tempBenchmark({}, 'cfg-basic'));
    const check = tempBenchmark({}, 'cfg-basic');
    edit(check, 'benchmark.toml', (s) => s.replace('value = "ok"', 'value = "fine"'));
    expect(await version(check)).not.toBe(base);
    const gate = tempBenchmark({}, 'cfg-basic');
    edit(gate, 'benchmark.toml', (s) => s.replace('threshold = 0.5', 'threshold = 0.6'));
    expect(await version(gate)).not.toBe(base);
    const limit = tempBenchmark({}, 'cfg-basic');
    edit(limit, 'benchmark.toml', (s) => s.replace('max_turns = 3', 'max_turns = 9'));
    expect(await version(limit)).not.toBe(base);
    // a limit that bounds grading commands too, set for one run: another version
    expect(await version(tempBenchmark({}, 'cfg-basic'), { flags: { limits: { exec_timeout_s: 7 } } })).not.toBe(base);
  });

  it("keeps the version when only the run's budgets and timeout change (--max-llm-calls, --trial-timeout, …)", async () => {
    const dir = tempBenchmark({}, 'cfg-basic');
    const base = await version(dir);
    const runLimits = { max_llm_calls: 3, max_user_llm_calls: 2, max_turns: 9, trial_timeout_s: 42 };
    expect(await version(dir, { flags: { limits: runLimits } })).toBe(base);
    expect(await version(dir, { env: { BENCHRIG_MAX_LLM_CALLS: '7', BENCHRIG_TRIAL_TIMEOUT: '30' } })).toBe(base);
    const layer = path.join(dir, 'run.toml');
    writeFileSync(layer, '[limits]\nmax_llm_calls = 1\nmax_turns = 2\n');
    expect(await version(dir, { configFile: layer })).toBe(base);
    // the run still has the limits it was given
    const b = await loadBenchmark(dir, { env, flags: { limits: runLimits } });
    expect(b.config.limits).toMatchObject(runLimits);
  });

  it('changes when a file in a referenced folder or the build context changes', async () => {
    const base = await version(tempBenchmark({}, 'cfg-basic'));
    expect(await version(tempBenchmark({ 'files/t1/hello.txt': 'changed\n' }, 'cfg-basic'))).not.toBe(base);
    const sbase = await version(tempBenchmark({}, 'cfg-sandbox'));
    expect(await version(tempBenchmark({ 'docker/Dockerfile': 'FROM busybox\n' }, 'cfg-sandbox'))).not.toBe(sbase);
  });

  it('ignores what does not decide a verdict: model, mode, filters, comments', async () => {
    const dir = tempBenchmark({}, 'cfg-basic');
    const base = await version(dir);
    expect(await version(dir, { env: { BENCHRIG_MODEL: 'other', BENCHRIG_MODE: 'single' } })).toBe(base);
    expect(await version(dir, { shuffle: true, seed: 5, limit: 2 })).toBe(base);
    edit(dir, 'benchmark.toml', (s) => `# a comment\n${s}`);
    expect(await version(dir)).toBe(base);
  });
});

describe('inputHash', () => {
  it('is 16 hex chars of the input alone', () => {
    const h = inputHash({ input: 'Count the files' });
    expect(h).toMatch(/^[0-9a-f]{16}$/);
    expect(inputHash({ id: 'other', input: 'Count the files', metadata: { x: 1 } } as never)).toBe(h);
    expect(inputHash({ input: 'Count the file' })).not.toBe(h);
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[{"y":2,"z":1}]},"b":1}');
  });
});
