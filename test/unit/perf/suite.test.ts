// The perf suite's own code at a tiny size, so that it cannot rot: every key is produced, finite,
// with its raw figures, the table names every key, and nothing is left behind (containers, temp dirs).
// Each run is given a perf.json from earlier: the rows it does not measure stay, carried over.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MILLION_TARGETS, runPerfSuite, TARGETS, TINY } from '../../perf/suite.ts';
import { formatTable } from '../../perf/table.ts';
import { benchrigContainers, requireDocker } from '../../support/docker.ts';
import { readJson, tempDir } from '../../support/cli.ts';

describe('perf suite (tiny)', () => {
  it('produces every key as a finite number, with raw figures, and cleans up', async () => {
    if (!(await requireDocker())) return;
    const out = join(tempDir(), 'perf.json');
    // what `npm run perf -- --1m` left there earlier (rows dated in raw, as it wrote them then), and an old default row
    const earlier = { measured_at: '2026-12-06T13:52:00.000Z', commit: '46ca195', load_average: [9, 2, 1] };
    const oneMillion = Object.fromEntries(
      Object.keys(MILLION_TARGETS).map((key) => [
        key,
        { key, value: 50, target: 'then', met: true, raw: { n_trials: 1_000_000, ...earlier } },
      ]),
    );
    const oldSandbox = { key: 'sandbox_overhead_ratio', value: 99, target: '≤ 0.8', met: false, raw: { trials: 40 } };
    writeFileSync(
      out,
      JSON.stringify({ created_at: 'earlier', rows: { ...oneMillion, sandbox_overhead_ratio: oldSandbox } }),
    );
    const before = new Set(readdirSync(tmpdir()).filter((n) => n.startsWith('benchrig-perf-')));
    const lines: string[] = [];
    const report = await runPerfSuite({ sizes: TINY, out, say: (l) => lines.push(l) });

    const saved = readJson(out);
    for (const key of [
      'sandbox_overhead_ratio',
      'overhead_ms_per_trial',
      'peak_rss_mb_10k',
      'grading_verdicts_per_s',
      'evaluate_10k_s',
      'peak_rss_mb_100k',
      'cpu_ms_per_trial',
      'evaluate_100k_s',
      'peak_rss_mb_100k_samples',
      'job_vs_separate_wall',
      'time_to_first_trial_ms',
    ]) {
      expect(Number.isFinite(saved[key]), key).toBe(true);
      expect(saved[key], key).toBeGreaterThan(0);
    }
    for (const mode of ['threads', 'processes'])
      expect(Number.isFinite(saved.scaling_efficiency[mode]), mode).toBe(true);
    expect(Object.keys(saved.rows).sort()).toEqual([...Object.keys(TARGETS), ...Object.keys(MILLION_TARGETS)].sort());
    for (const key of Object.keys(TARGETS)) {
      const row = saved.rows[key];
      expect(Object.keys(row.raw).length, key).toBeGreaterThan(0);
      expect(typeof row.met, key).toBe('boolean');
      expect(row.carried_over, key).toBeUndefined();
      expect(row.measured.commit, key).toBe(saved.commit);
    }
    // measured now: the old row replaced
    expect(saved.sandbox_overhead_ratio).not.toBe(99);
    expect(saved.rows.sandbox_overhead_ratio.raw.trials).toBe(TINY.sandbox.trials);
    // not measured by a default run: the --1m rows kept, dated by the run that measured them
    for (const key of Object.keys(MILLION_TARGETS)) {
      expect(saved[key], key).toBe(50);
      expect(saved.rows[key], key).toMatchObject({
        value: 50,
        carried_over: true,
        measured: { at: earlier.measured_at, commit: '46ca195', load_average: [9, 2, 1] },
        raw: { n_trials: 1_000_000 },
      });
    }
    // one-sample runs through the CLI: each reached the model (the row throws otherwise)
    expect(saved.rows.time_to_first_trial_ms.raw.first_trial_ms).toHaveLength(TINY.startup.runs);
    expect(saved.rows.overhead_ms_per_trial.raw.modes).toHaveProperty('processes');
    expect(saved.rows.overhead_ms_per_trial.raw.modes).toHaveProperty('single');
    expect(Number.isFinite(saved.gateway_overhead_ms)).toBe(true); // a difference: noise can make a tiny run's negative
    expect(Object.keys(saved.rows.gateway_overhead_ms.raw.modes).sort()).toEqual(['stream', 'whole']);
    expect(saved.rows.grading_verdicts_per_s.raw.checks).toEqual(
      expect.arrayContaining(['contains', 'regex', 'numeric']),
    );
    expect(Number.isFinite(saved.rss_growth_kb_per_trial)).toBe(true); // a difference: a tiny run's can be negative
    expect(saved.rows.peak_rss_mb_100k.raw).toMatchObject({ trials: TINY.rss.large, samples: TINY.rss.samples });
    // distinct samples through the CLI under GNU time: every sample ran and passed
    expect(saved.rows.peak_rss_mb_100k_samples.raw).toMatchObject({
      samples: TINY.distinct,
      n_trials: TINY.distinct,
      n_passed: TINY.distinct,
    });
    expect(saved.rows.peak_rss_mb_10k.raw).toMatchObject({
      trials: TINY.rss.trials,
      samples: TINY.rss.samples,
      n_trials: TINY.rss.trials,
    });
    // per-task environments: the first run builds each context once, the second nothing
    expect(saved.builds_second_run).toBe(0);
    expect(saved.rows.builds_second_run.raw).toMatchObject({
      builds_first_run: TINY.envs.contexts,
      tasks: TINY.envs.tasks,
    });
    expect(saved.per_task_env_ratio).toBeGreaterThan(0);
    // SWE-bench grading: benchrig and the hand loop both resolved every prediction (the row throws otherwise)
    expect(saved.swebench_grading_ratio).toBeGreaterThan(0);
    expect(saved.rows.swebench_grading_ratio.raw).toMatchObject({ predictions: TINY.swebench.predictions });
    // two-service trials: benchrig's run and the raw loop both measured, every trial passed
    expect(saved.multi_service_overhead_ratio).toBeGreaterThan(0);
    expect(saved.rows.multi_service_overhead_ratio.raw).toMatchObject({
      trials: TINY.multi.trials,
      concurrency: TINY.multi.concurrency,
    });
    for (const r of saved.rows.multi_service_overhead_ratio.raw.runs as Array<{ n_passed: number }>)
      expect(r.n_passed).toBe(TINY.multi.trials);
    expect(saved).not.toHaveProperty('vs_promptfoo_wall'); // only with --peer promptfoo
    expect(saved.cpus).toBeGreaterThan(0);
    expect(saved).toHaveProperty('commit');

    const table = formatTable(report);
    for (const key of Object.keys(TARGETS)) expect(table).toContain(key);
    expect(table).toContain('| `run_1m_wall_s` | 50.00 (carried over) | ≤ 600 | yes |');
    expect(table).toContain(
      '- `run_1m_wall_s`, `peak_rss_mb_1m`, `evaluate_1m_s`: measured 2026-12-06 13:52 UTC, commit 46ca195, load 9.00 2.00 1.00',
    );

    // The raw loop's containers carry its run id, which the row records nowhere: none may be left with the marker.
    const left = (await benchrigContainers()).filter((c) =>
      (c.Labels['benchrig.run'] ?? '').startsWith(`perf-raw-${process.pid}-`),
    );
    expect(left).toEqual([]);
    const after = readdirSync(tmpdir()).filter((n) => n.startsWith('benchrig-perf-') && !before.has(n));
    expect(after.filter((n) => existsSync(join(tmpdir(), n)))).toEqual([]);
  }, 300_000);

  it('--1m: the million-trial rows alone, through the CLI, merged into the perf.json there, the run folder sharded', async () => {
    const out = join(tempDir(), 'perf.json');
    const measured = { at: '2026-12-06T15:56:00.000Z', commit: '1bd345a', dirty: false, load_average: [1, 1, 1] };
    const sandbox = {
      key: 'sandbox_overhead_ratio',
      value: 0.7,
      target: '≤ 0.8',
      met: true,
      raw: { trials: 40 },
      measured,
    };
    writeFileSync(out, JSON.stringify({ rows: { sandbox_overhead_ratio: sandbox } }));
    const report = await runPerfSuite({ sizes: TINY, out, million: true, say: () => {} });
    const saved = readJson(out);
    for (const key of Object.keys(MILLION_TARGETS)) {
      expect(Number.isFinite(saved[key]), key).toBe(true);
      expect(saved[key], key).toBeGreaterThan(0);
      expect(saved.rows[key].raw, key).toMatchObject({
        samples: TINY.million.samples,
        n_trials: TINY.million.samples * TINY.million.trials,
        n_passed: TINY.million.samples * TINY.million.trials,
      });
    }
    // 60 trials over 256 shard folders (BENCHRIG_SHARD_ABOVE): the folder with the most entries is results/ or logs/
    expect(saved.rows.run_1m_wall_s.raw.largest_folder_entries).toBe(257);
    expect(saved.rows.run_1m_wall_s.raw.report_html_bytes).toBeGreaterThan(0);
    // the default rows are not measured with --1m: the one there is kept as it was measured
    expect(saved.sandbox_overhead_ratio).toBe(0.7);
    expect(saved.rows.sandbox_overhead_ratio).toEqual({ ...sandbox, carried_over: true });
    expect(saved).not.toHaveProperty('multi_service_overhead_ratio');
    const table = formatTable(report);
    expect(table).toContain('evaluate_1m_s');
    expect(table).toContain('| `sandbox_overhead_ratio` | 0.70 (carried over) | ≤ 0.8 | yes |');
    expect(table).not.toMatch(/evaluate_1m_s` \| [^|]*carried/);
  }, 300_000);
});
