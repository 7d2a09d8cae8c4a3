// history and the `auto` baseline over run folders built for it (run.json + evaluation_report.json).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportOf } from '../../support/report.ts';
import { history, resolveBaseline } from '../../../src/report/history.ts';
import { formatHistory } from '../../../src/report/compare-console.ts';
import { writeJsonAtomic } from '../../../src/report/write.ts';
import type { TrialStatus } from '../../../src/types.ts';
import { trial } from './fixtures.ts';
import { defined } from '../../support/defined.ts';
import { tempDir } from '../../support/cli.ts';

/** A run folder under `parent` named by its timestamp, with run.json and (unless `noReport`) a report. */
async function makeRun(
  parent: string,
  name: string,
  version: string,
  statuses: TrialStatus[],
  opts: { noReport?: boolean } = {},
) {
  const dir = join(parent, name);
  mkdirSync(join(dir, 'results'), { recursive: true });
  const started = `2024-01-0${name.slice(8)}T00:00:00.000Z`;
  await writeJsonAtomic(join(dir, 'run.json'), {
    run_id: name,
    benchmark: { name: 'bench', version },
    started_at: started,
    status: opts.noReport ? 'running' : 'complete',
  });
  if (opts.noReport) return dir;
  const report = await reportOf(
    statuses.map((s, i) => trial(`s${i}`, s, s === 'AGENT_ERROR' ? { error: { kind: 'agent', message: 'down' } } : {})),
    {
      benchmark: { version, n_samples: statuses.length },
      run: { id: name, dir, started_at: started, finished_at: started },
      gate: { metric: 'pass_rate', threshold: 0.5 },
    },
  );
  await writeJsonAtomic(join(dir, 'evaluation_report.json'), report);
  return dir;
}

async function fourRuns() {
  const parent = tempDir('benchrig-hist-');
  // Created out of order: history sorts by start time.
  const good = await makeRun(parent, '2024010-1', 'v1', ['PASSED', 'FAILED', 'PASSED', 'PASSED']);
  const outage = await makeRun(parent, '2024010-3', 'v2', ['AGENT_ERROR', 'AGENT_ERROR', 'AGENT_ERROR', 'AGENT_ERROR']);
  const better = await makeRun(parent, '2024010-2', 'v2', ['PASSED', 'PASSED', 'PASSED', 'PASSED']);
  const unfinished = await makeRun(parent, '2024010-4', 'v2', [], { noReport: true });
  return { parent, good, better, outage, unfinished };
}

describe('history', () => {
  it('lists every run oldest first with its numbers, marking version changes and runs without answers', async () => {
    const { parent } = await fourRuns();
    const rows = await history(parent);
    expect(rows.map((r) => r.name)).toEqual(['2024010-1', '2024010-2', '2024010-3', '2024010-4']);
    expect(rows.map((r) => r.pass_rate)).toEqual([0.75, 1, 0, null]);
    expect(rows.map((r) => r.version_changed)).toEqual([false, true, false, false]);
    expect(rows[0].gate).toMatchObject({ passed: true, value: 0.75 });
    expect(rows[2].gate).toMatchObject({ passed: false });
    expect(defined(rows[0].pass_rate_ci95)[0]).toBeGreaterThan(0);
    expect(rows[2].note).toMatch(/answered nothing/);
    expect(rows[3]).toMatchObject({ status: 'running', trials: null, note: 'no evaluation_report.json' });
    const text = formatHistory(parent, rows, { color: false });
    expect(text).toMatch(/2024010-2\s+v2 \*/);
    expect(text).toMatch(/75\.0% \(\d+\.\d%–\d+\.\d%\)/);
    // eslint-disable-next-line no-control-regex -- no ANSI escape (ESC, a control character) in a file
    expect(text).not.toMatch(/\u001b\[/);
  });

  it('is a usage error on a folder without runs', async () => {
    const empty = tempDir('benchrig-hist-');
    await expect(history(empty)).rejects.toThrow(/no runs here/);
    await expect(history(join(empty, 'missing'))).rejects.toThrow(/not a folder/);
  });
});

describe('resolveBaseline', () => {
  it('auto: takes the latest run that graded something, skipping an outage and an unfinished run, and says so', async () => {
    const { parent, better, outage, unfinished } = await fourRuns();
    const said: string[] = [];
    const choice = await resolveBaseline('auto', { cwd: '/', runsDir: parent, say: (l) => said.push(l) });
    expect(choice?.dir).toBe(better);
    expect(said.join('\n')).toContain(`skipped ${unfinished}: no evaluation_report.json`);
    expect(said.join('\n')).toMatch(new RegExp(`skipped ${outage}: the agent answered nothing`));
  });

  it('auto: none when no earlier run graded anything; a given outage run is refused', async () => {
    const parent = tempDir('benchrig-hist-');
    const outage = await makeRun(parent, '2024010-1', 'v1', ['AGENT_ERROR', 'TIMEOUT']);
    const said: string[] = [];
    expect(await resolveBaseline('auto', { cwd: '/', runsDir: parent, say: (l) => said.push(l) })).toBeNull();
    expect(said.at(-1)).toMatch(/no earlier run .* graded anything/);
    expect(
      await resolveBaseline('auto', { cwd: '/', runsDir: join(parent, 'nothing-here'), say: () => {} }),
    ).toBeNull();
    await expect(resolveBaseline(outage, { cwd: '/', runsDir: parent, say: () => {} })).rejects.toThrow(
      /cannot be the baseline: the agent answered nothing/,
    );
  });
});
