// compareReports over reports built from result files: tasks matched by input hash, the five lists,
// metric deltas, version warnings, and which runs may never be a baseline.
import { describe, expect, it } from 'vitest';
import { reportOf } from '../../support/report.ts';
import { answeredNothing, compareReports, loadBaselineReport, taskState } from '../../../src/report/compare.ts';
import { formatComparison } from '../../../src/report/compare-console.ts';
import { writeJsonAtomic } from '../../../src/report/write.ts';
import type { EvaluationReport } from '../../../src/report/types.ts';
import type { TrialResult, TrialStatus } from '../../../src/types.ts';
import { trial } from './fixtures.ts';

import { join } from 'node:path';
import { tempDir } from '../../support/cli.ts';

/** One trial per [sample id, input, status]; k trials per sample when statuses is a list. */
function results(rows: Array<[string, string, TrialStatus | TrialStatus[]]>): TrialResult[] {
  return rows.flatMap(([id, input, st]) =>
    (Array.isArray(st) ? st : [st]).map((s, i) => ({
      ...trial(id, s, { md: { input_hash: `h-${input}` } }),
      trial: i + 1,
      ...(s === 'AGENT_ERROR' ? { error: { kind: 'agent' as const, message: 'boom' } } : {}),
    })),
  );
}

async function report(
  rows: Array<[string, string, TrialStatus | TrialStatus[]]>,
  version = 'v1',
  id = 'run',
  trials: TrialResult[] = results(rows),
): Promise<EvaluationReport> {
  return reportOf(trials, {
    benchmark: { version, n_samples: rows.length },
    run: {
      id,
      dir: `/evals/agent/bench/${id}`,
      started_at: '2024-01-01T00:00:00Z',
      finished_at: '2024-01-01T00:01:00Z',
    },
    gate: { metric: 'pass_rate', threshold: 0.5 },
  });
}

const ids = (list: Array<{ sample_id: string }>) => list.map((t) => t.sample_id).sort();

describe('compareReports', () => {
  it('sorts every task into regressions, new failures, fixed, persistent and unanswered', async () => {
    const base = await report([
      ['p2f', 'q1', 'PASSED'],
      ['f2p', 'q2', 'FAILED'],
      ['f2f', 'q3', 'FAILED'],
      ['p2err', 'q4', 'PASSED'],
      ['p2p', 'q5', 'PASSED'],
      ['gone', 'q6', 'PASSED'],
      ['err2p', 'q8', 'AGENT_ERROR'],
    ]);
    const cur = await report([
      ['p2f', 'q1', 'FAILED'],
      ['f2p', 'q2', 'PASSED'],
      ['f2f', 'q3', 'FAILED'],
      ['p2err', 'q4', 'TIMEOUT'],
      ['p2p', 'q5', 'PASSED'],
      ['new', 'q7', 'FAILED'],
      ['err2p', 'q8', 'PASSED'],
    ]);
    const c = compareReports(base, cur);
    expect(ids(c.regressions)).toEqual(['p2f']);
    expect(ids(c.fixed)).toEqual(['err2p', 'f2p']);
    expect(ids(c.persistent)).toEqual(['f2f']);
    expect(ids(c.unanswered)).toEqual(['p2err']); // passed before, timed out now: not a regression
    expect(ids(c.new_failures)).toEqual(['new']);
    expect(ids(c.removed)).toEqual(['gone']);
    expect(c.counts).toMatchObject({
      regressions: 1,
      fixed: 2,
      persistent: 1,
      unanswered: 1,
      new_failures: 1,
      still_passing: 1,
      removed: 1,
    });
    expect(c.versions_differ).toBe(false);
    expect(c.message).toBeNull();
  });

  it('matches tasks by input hash, not by id, and flags different versions loudly', async () => {
    const base = await report(
      [
        ['a', 'apple', 'PASSED'],
        ['b', 'banana', 'PASSED'],
        ['c', 'cherry', 'FAILED'],
      ],
      'v1',
    );
    const cur = await report(
      [
        ['row-3', 'cherry', 'PASSED'],
        ['row-1', 'apple', 'FAILED'],
        ['row-2', 'banana', 'PASSED'],
      ],
      'v2',
    );
    const c = compareReports(base, cur);
    expect(c.regressions).toHaveLength(1);
    expect(c.regressions[0]).toMatchObject({
      sample_id: 'row-1',
      input_hash: 'h-apple',
      before: { sample_id: 'a', state: 'passing' },
      now: { state: 'failing' },
    });
    expect(c.fixed.map((t) => [t.before?.sample_id, t.sample_id])).toEqual([['c', 'row-3']]);
    expect(c.counts.still_passing).toBe(1);
    expect(c.new_failures).toEqual([]);
    expect(c.versions_differ).toBe(true);
    expect(c.message).toMatch(/versions differ \(v1 → v2\)/);
  });

  it('pairs samples that share an input by id first', async () => {
    const base = await report([
      ['x', 'same', 'PASSED'],
      ['y', 'same', 'FAILED'],
    ]);
    const cur = await report([
      ['y', 'same', 'FAILED'],
      ['x', 'same', 'FAILED'],
    ]);
    const c = compareReports(base, cur);
    expect(ids(c.regressions)).toEqual(['x']);
    expect(ids(c.persistent)).toEqual(['y']);
  });

  it('calls a task with several trials passing only when every gradable trial passed', async () => {
    const base = await report([['t', 'q', ['PASSED', 'PASSED', 'PASSED']]]);
    const cur = await report([['t', 'q', ['PASSED', 'FAILED', 'PASSED']]]);
    const c = compareReports(base, cur);
    expect(ids(c.regressions)).toEqual(['t']);
    expect(c.regressions[0].now).toMatchObject({ passed: 2, gradable: 3, trials: 3 });
    expect(taskState({ trials: 3, passed: 2, gradable: 2, statuses: { PASSED: 2, SANDBOX_ERROR: 1 } })).toBe('passing');
    expect(taskState({ trials: 2, passed: 0, gradable: 0, statuses: { SANDBOX_ERROR: 2 } })).toBe('not_graded');
    expect(taskState({ trials: 2, passed: 0, gradable: 2, statuses: { AGENT_ERROR: 1, TIMEOUT: 1 } })).toBe(
      'unanswered',
    );
  });

  it('reports metric deltas, null when either side has no value', async () => {
    const base = await report([
      ['a', '1', 'PASSED'],
      ['b', '2', 'FAILED'],
    ]);
    const cur = await report([
      ['a', '1', 'PASSED'],
      ['b', '2', 'PASSED'],
      ['c', '3', 'PASSED'],
      ['d', '4', 'AGENT_ERROR'],
    ]);
    const c = compareReports(base, cur);
    expect(c.metrics.pass_rate).toEqual({ baseline: 0.5, current: 0.75, delta: 0.25 });
    expect(c.metrics.agent_error_rate).toEqual({ baseline: 0, current: 0.25, delta: 0.25 });
    const ungraded = await report([['a', '1', 'SANDBOX_ERROR']]);
    expect(compareReports(base, ungraded).metrics.pass_rate).toEqual({ baseline: 0.5, current: null, delta: null });
  });
});

describe('a run the agent answered nothing in is never a baseline', () => {
  it('names an outage run, a run of sandbox errors and an empty run; accepts a run with one answer', async () => {
    expect(
      answeredNothing(
        await report([
          ['a', '1', 'AGENT_ERROR'],
          ['b', '2', 'TIMEOUT'],
        ]),
      ),
    ).toMatch(/answered nothing.*1 AGENT_ERROR, 1 TIMEOUT/);
    expect(answeredNothing(await report([['a', '1', 'SANDBOX_ERROR']]))).toMatch(/answered nothing/);
    expect(answeredNothing(await report([['a', '1', 'UNGRADABLE']]))).toMatch(/pass_rate is null/);
    expect(answeredNothing(await report([]))).toMatch(/no trials/);
    expect(
      answeredNothing(
        await report([
          ['a', '1', 'AGENT_ERROR'],
          ['b', '2', 'FAILED'],
        ]),
      ),
    ).toBeNull();
  });

  it('refuses such a run folder as the baseline with a message naming it', async () => {
    const dir = tempDir('benchrig-cmp-');
    await writeJsonAtomic(join(dir, 'evaluation_report.json'), await report([['a', '1', 'AGENT_ERROR']]));
    await expect(loadBaselineReport(dir)).rejects.toThrow(
      new RegExp(`${dir} cannot be the baseline: the agent answered nothing`),
    );
    await expect(loadBaselineReport(join(dir, 'nope'))).rejects.toThrow(/no evaluation_report.json/);
  });

  it("puts each task's cost (the sum of its trials') side by side, the largest change first", async () => {
    /** A report of passing trials, each with its cost. */
    const costly = (rows: Array<[string, string, Array<number | null>]>) =>
      report(
        [],
        'v1',
        'run',
        rows.flatMap(([id, input, costs]) =>
          costs.map((cost_usd, i) => ({
            ...trial(id, 'PASSED', { md: { input_hash: `h-${input}`, cost_usd } }),
            trial: i + 1,
          })),
        ),
      );
    const base = await costly([
      ['cheap', 'q1', [0.001]],
      ['dear', 'q2', [0.25, 0.25]],
      ['unpriced', 'q3', [null]],
      ['gone', 'q4', [0.3]],
    ]);
    expect(base.tasks.find((t) => t.sample_id === 'dear')?.cost_usd).toBe(0.5);
    expect(base.tasks.find((t) => t.sample_id === 'unpriced')?.cost_usd).toBeNull();
    const now = await costly([
      ['cheap', 'q1', [0.002]],
      ['dear', 'q2', [0.1, null]],
      ['unpriced', 'q3', [null]],
      ['new', 'q5', [0.04]],
    ]);
    const c = compareReports(base, now);
    expect(c.task_costs.map((t) => [t.sample_id, t.baseline, t.current, t.delta])).toEqual([
      ['dear', 0.5, 0.1, 0.1 - 0.5],
      ['cheap', 0.001, 0.002, 0.001],
      ['new', null, 0.04, null],
    ]);
    const text = formatComparison(c, { color: false });
    expect(text).toContain('cost per task (3, largest change first)');
    expect(text).toMatch(/\n\s+dear\s+\$0\.5000\s+\$0\.1000\s+-\$0\.4000\n/);
    expect(text).toMatch(/\n\s+new\s+n\/a\s+\$0\.0400\s+n\/a\n/);
  });
});
