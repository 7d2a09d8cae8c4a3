import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildReport, failureReason, readResults, type BuildReportOptions } from '../../../src/report/aggregate.ts';
import { writeJsonAtomic } from '../../../src/report/write.ts';
import type { TrialResult } from '../../../src/types.ts';
import { trial } from './fixtures.ts';

const base = (results: BuildReportOptions['results'], extra: Partial<BuildReportOptions> = {}): BuildReportOptions => ({
  benchmark: { name: 'demo', version: 'abc123', n_samples: 3 },
  agent: { id: 'oracle', name: 'oracle' },
  run: {
    id: '20240101-000000',
    dir: '/tmp/run',
    mode: 'single',
    workers: 1,
    trials: 1,
    status: 'complete',
    started_at: '2024-01-01T00:00:00.000Z',
    finished_at: '2024-01-01T00:01:30.500Z',
  },
  blocksAreSuccess: false,
  results,
  ...extra,
});

const failing = (name: string, reason: string) => ({ name, type: 'exact', passed: false, score: 0, reason });
const passing = (name: string, reason: string) => ({ name, type: 'exact', passed: true, score: 1, reason });

describe('buildReport', () => {
  it('has every top-level key of docs/reports.md#files, plus only the documented slowest_trials', async () => {
    const r = await buildReport(base([trial('a', 'PASSED')], { gate: { metric: 'pass_rate', threshold: 0.5 } }));
    expect(Object.keys(r).sort()).toEqual(
      [
        'agent',
        'benchmark',
        'checks',
        'comparison',
        'gate',
        'metrics',
        'run',
        'schema_version',
        'slowest_trials',
        'tasks',
        'top_failures',
        'top_successes',
      ].sort(),
    );
    expect(r.slowest_trials).toEqual([
      { task_id: expect.stringMatching(/^a-t/), status: 'PASSED', execution_time_s: expect.any(Number) },
    ]);
    expect(r.schema_version).toBe(1);
    expect(r.benchmark).toEqual({ name: 'demo', version: 'abc123', n_samples: 3 });
    expect(r.run.duration_s).toBe(90.5);
    expect(Object.keys(r.run).sort()).toEqual([
      'dir',
      'duration_s',
      'finished_at',
      'id',
      'mode',
      'started_at',
      'status',
      'trials',
      'workers',
    ]);
    expect(r.comparison).toBeNull();
    expect(r.gate).toMatchObject({ metric: 'pass_rate', value: 1, passed: true });
    expect(r.metrics.pass_rate).toBe(1);
  });

  it('gate is null without one; duration_s null with a bad date', async () => {
    const r = await buildReport(base([], { run: { ...base([]).run, finished_at: 'never' } }));
    expect(r.gate).toBeNull();
    expect(r.run.duration_s).toBeNull();
    expect(r.top_failures).toEqual([]);
  });

  it('accepts an async iterable of results', async () => {
    async function* gen(): AsyncIterable<TrialResult> {
      yield trial('a', 'PASSED');
      yield trial('b', 'FAILED');
    }
    expect((await buildReport(base(gen()))).metrics.pass_rate).toBe(0.5);
  });

  it('top failures: agent failures first, lowest score first, reason from the first failing check or the error', async () => {
    const r = await buildReport(
      base([
        trial('s', 'SANDBOX_ERROR', { task_id: 's', error: { kind: 'sandbox', message: 'no docker' } }),
        trial('f2', 'FAILED', {
          task_id: 'f2',
          score: 0.5,
          checks: [passing('p', 'ok'), failing('n', 'expected "42", got "41"')],
        }),
        trial('f1', 'FAILED', { task_id: 'f1', score: 0, checks: [failing('n', 'missing "foo"')] }),
        trial('e', 'AGENT_ERROR', { task_id: 'e', error: { kind: 'agent', message: 'boom' } }),
        trial('ok', 'PASSED', { task_id: 'ok', checks: [passing('p', 'equals "x"')] }),
        trial('u', 'UNGRADABLE', {
          task_id: 'u',
          checks: [{ name: 'j', type: 'llm_judge', passed: null, score: 0, reason: 'judge down' }],
        }),
      ]),
    );
    expect(r.top_failures).toEqual([
      { task_id: 'f1', status: 'FAILED', reason: 'n: missing "foo"' },
      { task_id: 'f2', status: 'FAILED', reason: 'n: expected "42", got "41"' },
      { task_id: 'e', status: 'AGENT_ERROR', reason: 'agent: boom' },
      { task_id: 's', status: 'SANDBOX_ERROR', reason: 'sandbox: no docker' },
      { task_id: 'u', status: 'UNGRADABLE', reason: 'j: judge down' },
    ]);
    expect(r.top_successes).toEqual([{ task_id: 'ok', status: 'PASSED', reason: 'p: equals "x"' }]);
  });

  it('keeps at most 10 of each, the best by score then task id', async () => {
    const results = Array.from({ length: 25 }, (_, i) =>
      trial(`t${i}`, i % 2 ? 'PASSED' : 'FAILED', {
        task_id: `t${String(i).padStart(2, '0')}`,
        score: i % 2 ? (i % 3 === 0 ? 1 : 0.5) : 0,
      }),
    );
    const r = await buildReport(base(results));
    expect(r.top_failures).toHaveLength(10);
    expect(r.top_failures.map((f) => f.task_id)).toEqual([
      't00',
      't02',
      't04',
      't06',
      't08',
      't10',
      't12',
      't14',
      't16',
      't18',
    ]);
    expect(r.top_successes).toHaveLength(10);
    // score 1 first (odd multiples of 3: 3, 9, 15, 21), then score 0.5 in id order
    expect(r.top_successes.map((f) => f.task_id)).toEqual([
      't03',
      't09',
      't15',
      't21',
      't01',
      't05',
      't07',
      't11',
      't13',
      't17',
    ]);
  });

  it('keeps the same 10, and the same slowest, whatever order the results come in (a sharded run reads them by folder)', async () => {
    const results = Array.from({ length: 40 }, (_, i) =>
      trial(`t${i}`, i % 2 ? 'PASSED' : 'FAILED', {
        task_id: `t${String(i).padStart(2, '0')}`,
        score: i % 2 ? (i % 3 === 0 ? 1 : 0.5) : i % 4 ? 0.2 : 0,
        md: { execution_time_s: i % 7 },
      }),
    );
    const tops = async (list: typeof results) => {
      const r = await buildReport(base(list));
      return { failures: r.top_failures, successes: r.top_successes, slowest: r.slowest_trials };
    };
    const forward = await tops(results);
    expect(forward.failures.map((f) => f.task_id).slice(0, 3)).toEqual(['t00', 't04', 't08']);
    expect(forward.slowest?.map((t) => t.task_id)).toEqual(['t06', 't13', 't20', 't27', 't34']);
    expect(await tops([...results].reverse())).toEqual(forward);
    const shuffled = results.map((r, i) => ({ r, k: (i * 17) % 40 })).sort((a, b) => a.k - b.k);
    expect(await tops(shuffled.map((x) => x.r))).toEqual(forward);
  });

  it('blocked successes read "blocked" in red-team suites', async () => {
    const r = await buildReport(
      base([trial('a', 'PASSED', { task_id: 'a', blocked: true })], { blocksAreSuccess: true }),
    );
    expect(r.top_successes).toEqual([{ task_id: 'a', status: 'PASSED', reason: 'blocked' }]);
    expect(r.metrics.safety_violation_rate).toBe(0);
  });

  it('failureReason falls back sensibly', () => {
    expect(failureReason(trial('a', 'FAILED', { error: { kind: 'limit', message: 'turns' } }))).toBe('limit: turns');
    expect(failureReason(trial('a', 'UNGRADABLE'))).toBe('no checks');
  });
});

describe('readResults', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'benchrig-agg-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads every results/*.json once, in name order, skipping temp and other files', async () => {
    await writeJsonAtomic(join(dir, 'results', 'b.json'), trial('b', 'FAILED'));
    await writeJsonAtomic(join(dir, 'results', 'a.json'), trial('a', 'PASSED'));
    await writeFile(join(dir, 'results', '.a.json.123.ab.tmp'), '{half');
    await writeFile(join(dir, 'results', 'notes.txt'), 'x');
    const seen: string[] = [];
    for (const r of readResults(dir)) seen.push(r.sample_id);
    expect(seen).toEqual(['a', 'b']);
    const report = await buildReport(base(readResults(dir)));
    expect(report.metrics.n_trials).toBe(2);
  });

  it('yields nothing without a results folder', async () => {
    const seen: unknown[] = [];
    for (const r of readResults(join(dir, 'missing'))) seen.push(r);
    expect(seen).toEqual([]);
  });

  it('names a corrupt result file', async () => {
    await mkdir(join(dir, 'results'));
    await writeFile(join(dir, 'results', 'bad.json'), '{not json');
    const drain = () => {
      for (const _ of readResults(dir)) void _;
    };
    expect(drain).toThrow(/corrupt result file .*bad\.json/);
  });
});
