// What evals/perf/perf.json holds after a run of `npm run perf` (docs/performance.md#running-the-suite):
// the rows the run measured replace the old ones; the rows it did not measure (a default run: the
// `--1m` and the peers' rows; `--1m`: the default rows) stay, marked carried over with when, at which
// commit and under which load they were measured, and the printed table says so.
import { describe, expect, it } from 'vitest';
import { mergeRows, reportValues, type PreviousReport } from '../../perf/merge.ts';
import { formatTable, type Row, type Stamp } from '../../perf/table.ts';

const TARGETS = {
  sandbox_overhead_ratio: { max: 0.8 },
  'scaling_efficiency.threads': { min: 0.85 },
  'scaling_efficiency.processes': { min: 0.85 },
  run_1m_wall_s: { max: 600 },
  vs_inspect_wall: { max: 0.25 },
};

const stamp = (at: string, commit: string, load: number): Stamp => ({
  at,
  commit,
  dirty: false,
  load_average: [load, load, load],
});

const row = (key: string, value: number | null, measured?: Stamp, raw: Record<string, unknown> = {}): Row => ({
  key,
  value,
  target: 'as written then',
  met: true,
  raw: { figure: key, ...raw },
  ...(measured ? { measured } : {}),
});

const MILLION_RUN = stamp('2026-12-06T13:52:10.000Z', '46ca195d1e0000000000000000000000000000aa', 9);
const DEFAULT_RUN = stamp('2026-12-06T15:56:00.000Z', '1bd345ab80000000000000000000000000000bbb', 1);
const NOW = stamp('2026-12-07T09:00:00.000Z', 'e090b62000000000000000000000000000000ccc', 0.5);

describe('perf.json after a run', () => {
  it('a default run replaces the rows it measured and keeps the --1m and peer rows, marked carried over', () => {
    const previous: PreviousReport = {
      created_at: DEFAULT_RUN.at,
      rows: {
        sandbox_overhead_ratio: row('sandbox_overhead_ratio', 1.05, DEFAULT_RUN),
        run_1m_wall_s: row('run_1m_wall_s', 446.7, MILLION_RUN),
        vs_inspect_wall: row('vs_inspect_wall', 0.07, DEFAULT_RUN),
      },
    };
    const measured = {
      sandbox_overhead_ratio: { ...row('sandbox_overhead_ratio', 0.75, NOW), target: '≤ 0.8' },
      'scaling_efficiency.threads': row('scaling_efficiency.threads', 0.93, NOW),
      'scaling_efficiency.processes': row('scaling_efficiency.processes', 0.8, NOW),
    };
    const rows = mergeRows(previous, measured, TARGETS);

    expect(Object.keys(rows)).toEqual(Object.keys(TARGETS)); // the suite's order, whoever measured each
    expect(rows.sandbox_overhead_ratio).toEqual(measured.sandbox_overhead_ratio);
    expect(rows.sandbox_overhead_ratio.carried_over).toBeUndefined();
    expect(rows.run_1m_wall_s).toMatchObject({
      value: 446.7,
      raw: { figure: 'run_1m_wall_s' },
      carried_over: true,
      measured: MILLION_RUN,
    });
    expect(rows.vs_inspect_wall).toMatchObject({ value: 0.07, carried_over: true, measured: DEFAULT_RUN });

    // the header is the writing run's; the figures are every row's, carried over or not
    const values = reportValues(rows);
    expect(values).toEqual({
      sandbox_overhead_ratio: 0.75,
      scaling_efficiency: { threads: 0.93, processes: 0.8 },
      run_1m_wall_s: 446.7,
      vs_inspect_wall: 0.07,
    });
  });

  it('a --1m run after it keeps the default rows with the stamp of the run that measured them', () => {
    const afterDefault = mergeRows(
      { rows: { run_1m_wall_s: row('run_1m_wall_s', 446.7, MILLION_RUN) } },
      { sandbox_overhead_ratio: row('sandbox_overhead_ratio', 0.75, DEFAULT_RUN) },
      TARGETS,
    );
    const rows = mergeRows(
      { created_at: DEFAULT_RUN.at, rows: afterDefault },
      { run_1m_wall_s: row('run_1m_wall_s', 430, NOW) },
      TARGETS,
    );
    expect(rows.run_1m_wall_s).toMatchObject({ value: 430, measured: NOW });
    expect(rows.run_1m_wall_s.carried_over).toBeUndefined();
    // carried over twice: still the run that measured it, not the one that carried it
    expect(rows.sandbox_overhead_ratio).toMatchObject({ value: 0.75, carried_over: true, measured: DEFAULT_RUN });
  });

  it('judges a carried row against today’s target, and drops a row the suite no longer has', () => {
    const rows = mergeRows(
      {
        rows: {
          sandbox_overhead_ratio: { ...row('sandbox_overhead_ratio', 0.9, DEFAULT_RUN), target: '≤ 1.5', met: true },
          renamed_long_ago: row('renamed_long_ago', 1, DEFAULT_RUN),
        },
      },
      {},
      TARGETS,
    );
    expect(rows.sandbox_overhead_ratio).toMatchObject({ target: '≤ 0.8', met: false, carried_over: true });
    expect(rows).not.toHaveProperty('renamed_long_ago');
  });

  it('dates the rows of a perf.json written before rows had a stamp: raw.measured_at, else the report’s', () => {
    const rows = mergeRows(
      {
        created_at: DEFAULT_RUN.at,
        commit: DEFAULT_RUN.commit,
        dirty: false,
        load_average: { start: [4, 4, 4], end: [1, 1, 1] },
        rows: {
          // a default row: dated by the report (a --peers-only run kept its header)
          sandbox_overhead_ratio: row('sandbox_overhead_ratio', 1.05),
          // a peer's or --1m row: it kept when in raw
          vs_inspect_wall: row('vs_inspect_wall', 0.07, undefined, {
            measured_at: MILLION_RUN.at,
            commit: MILLION_RUN.commit,
            load_average: [9, 9, 9],
          }),
          // a skipped row stays one
          run_1m_wall_s: { ...row('run_1m_wall_s', null), skipped: 'stopped', met: false },
        },
      },
      {},
      TARGETS,
    );
    expect(rows.sandbox_overhead_ratio.measured).toEqual(DEFAULT_RUN);
    expect(rows.vs_inspect_wall.measured).toEqual({ ...MILLION_RUN, dirty: null });
    expect(rows.run_1m_wall_s).toMatchObject({ value: null, met: false, skipped: 'stopped', carried_over: true });
    expect(reportValues(rows).run_1m_wall_s).toBeNull();
  });

  it('with no perf.json there, or one that is not a report, keeps nothing', () => {
    const measured = { sandbox_overhead_ratio: row('sandbox_overhead_ratio', 0.75, NOW) };
    expect(mergeRows(null, measured, TARGETS)).toEqual(measured);
    expect(mergeRows({ rows: 'garbage' }, measured, TARGETS)).toEqual(measured);
  });

  it('the table marks each carried-over row and says when, at which commit and load it was measured', () => {
    const rows = mergeRows(
      {
        rows: {
          run_1m_wall_s: { ...row('run_1m_wall_s', 446.7, MILLION_RUN), target: '≤ 600' },
          vs_inspect_wall: row('vs_inspect_wall', 0.07, { ...DEFAULT_RUN, dirty: true }),
        },
      },
      { sandbox_overhead_ratio: { ...row('sandbox_overhead_ratio', 0.75, NOW), target: '≤ 0.8' } },
      TARGETS,
    );
    const table = formatTable({
      rows,
      cpus: 2,
      commit: NOW.commit,
      dirty: false,
      created_at: '2026-12-07T09:00:00.000Z',
    });
    expect(table).toContain('| `sandbox_overhead_ratio` | 0.75 | ≤ 0.8 | yes |');
    expect(table).toContain('| `run_1m_wall_s` | 447 (carried over) | ≤ 600 | yes |');
    expect(table).toContain('| `vs_inspect_wall` | 0.07 (carried over) | ≤ 0.25 | yes |');
    expect(table).toContain('Carried over from the perf.json already there (not measured by this run):');
    expect(table).toContain('- `run_1m_wall_s`: measured 2026-12-06 13:52 UTC, commit 46ca195d1e, load 9.00 9.00 9.00');
    expect(table).toContain(
      '- `vs_inspect_wall`: measured 2026-12-06 15:56 UTC, commit 1bd345ab80 + uncommitted changes, load 1.00 1.00 1.00',
    );
    expect(table).not.toMatch(/sandbox_overhead_ratio.*carried/);
  });
});
