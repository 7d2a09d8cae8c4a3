// evaluation_report.json written a task at a time (issue 28): the same bytes as the whole report
// stringified, for reports with many tasks, none, and text that JSON escapes.
import { describe, expect, it } from 'vitest';
import { reportOf } from '../../support/report.ts';
import { reportJsonChunks } from '../../../src/report/report-json.ts';
import type { EvaluationReport } from '../../../src/report/types.ts';
import type { TrialResult } from '../../../src/types.ts';
import { trial } from './fixtures.ts';

const report = (results: TrialResult[]): Promise<EvaluationReport> =>
  reportOf(results, {
    benchmark: { name: 'demo "tasks"', version: 'abc123' },
    agent: 'oracle',
    run: {
      id: 'r1',
      dir: '/tmp/run',
      mode: 'threads',
      workers: 2,
      trials: 2,
      started_at: '2024-01-01T00:00:00.000Z',
      finished_at: '2024-01-01T00:01:30.500Z',
    },
    gate: { metric: 'pass_rate', threshold: 0.5 },
  });

const whole = (r: EvaluationReport) => `${JSON.stringify(r, null, 2)}\n`;

describe('reportJsonChunks', () => {
  it('joins into JSON.stringify(report, null, 2) and a line break', async () => {
    const results = [
      trial('a', 'PASSED'),
      trial('a', 'FAILED'),
      trial('b\n"quoted" \\ ✓ \u2028', 'TIMEOUT'),
      ...Array.from({ length: 300 }, (_, i) => trial(`s${i}`, i % 3 ? 'PASSED' : 'AGENT_ERROR')),
    ];
    const r = await report(results);
    expect(r.tasks.length).toBe(302);
    const chunks = [...reportJsonChunks(r)];
    expect(chunks.length).toBeGreaterThan(302); // a piece per task, not one string
    expect(chunks.join('')).toBe(whole(r));
    expect(JSON.parse(chunks.join(''))).toEqual(JSON.parse(whole(r)));
  });

  it('a report without tasks, and one whose text holds "tasks"', async () => {
    const r = await report([]);
    expect([...reportJsonChunks(r)].join('')).toBe(whole(r));
    const odd = { ...(await report([trial('tasks', 'PASSED')])), tasks_note: '"tasks": []' };
    expect([...reportJsonChunks(odd)].join('')).toBe(whole(odd));
  });
});
