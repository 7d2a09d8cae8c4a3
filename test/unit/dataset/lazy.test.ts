// A run's dataset read as a stream (issue 28, dataset/lazy.ts): the same samples, version, order and
// refusals as the whole-file load, the rows read again from the file as the run takes them, and a
// dataset changed under the run refused rather than run as something else.
import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBenchmark, loadBenchmarkStreamed } from '../../../src/benchmark/load.ts';
import { TrialPlan } from '../../../src/run/trials.ts';
import { fixture, tempBenchmark, userError } from '../benchmark/helpers.ts';

const env = {};
const TOML = 'name = "lazy"\n[dataset]\nsource = "data.jsonl"\n[[checks]]\ntype = "contains"\n';

/** Rows with what a streamed read must reproduce: a BOM, CRLF, blank lines, multi-byte text, a row longer than a read chunk. */
function rows(): string {
  const lines = ['\uFEFF{"id": "a", "input": "ünïcødé ✓", "expected": "x", "topic": "t"}\r'];
  lines.push('', '   ');
  for (let i = 0; i < 50; i++) lines.push(JSON.stringify({ id: `r${i}`, input: `q ${i}`, expected: String(i) }));
  lines.push(JSON.stringify({ id: 'long', input: 'y'.repeat(1_500_000), expected: 'z' }));
  return lines.join('\n') + '\n{"id": "last", "input": "no line break", "expected": "e"}';
}

describe('a streamed JSON Lines dataset', () => {
  it('gives the samples, version and length of the whole-file load', async () => {
    const dir = tempBenchmark({ 'benchmark.toml': TOML, 'data.jsonl': rows() });
    const whole = await loadBenchmark(dir, { env });
    const streamed = await loadBenchmarkStreamed(dir, { env });
    expect(Array.isArray(streamed.samples)).toBe(false); // not held
    expect(streamed.samples.length).toBe(whole.samples.length);
    expect(streamed.nSamplesTotal).toBe(whole.nSamplesTotal);
    expect([...streamed.samples]).toEqual(whole.samples);
    expect(streamed.samples.at(53)).toEqual(whole.samples[53]);
    expect(streamed.samples.at(0)?.input).toBe('ünïcødé ✓');
    expect(streamed.version).toBe(whole.version);
  });

  it('--sample, --shuffle and --limit choose the same samples in the same order', async () => {
    const dir = tempBenchmark({ 'benchmark.toml': TOML, 'data.jsonl': rows() });
    for (const opts of [{ sample: ['r7,r3', 'long'] }, { shuffle: true, seed: 7, limit: 5 }, { limit: 2 }]) {
      const whole = await loadBenchmark(dir, { env, ...opts });
      const streamed = await loadBenchmarkStreamed(dir, { env, ...opts });
      expect(
        [...streamed.samples].map((s) => s.id),
        JSON.stringify(opts),
      ).toEqual(whole.samples.map((s) => s.id));
      expect(streamed.version).toBe(whole.version);
    }
  });

  it('a fixture with fields mapped and folders gives the same version either way', async () => {
    const whole = await loadBenchmark(fixture('cfg-basic'), { env });
    const streamed = await loadBenchmarkStreamed(fixture('cfg-basic'), { env });
    expect(streamed.version).toBe(whole.version);
    expect([...streamed.samples]).toEqual(whole.samples);
  });

  it('refuses what the whole-file load refuses, naming the file and line', async () => {
    const dup = tempBenchmark({
      'benchmark.toml': TOML,
      'data.jsonl': '{"id": "a", "input": "1", "expected": "x"}\n\n{"id": "a", "input": "2", "expected": "x"}\n',
    });
    const a = await userError(loadBenchmark(dup, { env }), 'dataset');
    expect(await userError(loadBenchmarkStreamed(dup, { env }), 'dataset')).toBe(a);
    expect(a).toMatch(/duplicate sample id "a": .*data\.jsonl:1 and .*data\.jsonl:3/);
    const bad = tempBenchmark({
      'benchmark.toml': TOML,
      'data.jsonl': '{"id": "a", "input": "1", "expected": "x"}\n[1]\n',
    });
    expect(await userError(loadBenchmarkStreamed(bad, { env }), 'dataset')).toBe(
      await userError(loadBenchmark(bad, { env }), 'dataset'),
    );
    const none = tempBenchmark({ 'benchmark.toml': TOML, 'data.jsonl': '{"id": "a", "input": "1"}\n' });
    expect(await userError(loadBenchmarkStreamed(none, { env }), 'benchmark')).toBe(
      await userError(loadBenchmark(none, { env }), 'benchmark'),
    );
  });

  it('reads each sample from the file as the run takes it, and refuses a dataset changed since the load', async () => {
    const dir = tempBenchmark({ 'benchmark.toml': TOML, 'data.jsonl': rows() });
    const b = await loadBenchmarkStreamed(dir, { env });
    const plan = new TrialPlan(b.samples, 2);
    const it = plan[Symbol.iterator]();
    expect(it.next().value).toMatchObject({ taskId: 'a-t1', sample: { id: 'a', expected: 'x' } });
    appendFileSync(path.join(dir, 'data.jsonl'), '\n{"id": "new", "input": "n", "expected": "n"}\n');
    expect(it.next().value).toMatchObject({ taskId: 'a-t2' }); // the sample in hand
    expect(() => it.next()).toThrow(/data\.jsonl: the dataset changed while the run was reading it/);
    writeFileSync(path.join(dir, 'data.jsonl'), rows());
    expect([...new TrialPlan((await loadBenchmarkStreamed(dir, { env })).samples, 1)].length).toBe(53);
  });
});
