// report.html made in one pass (issue 17): the trial entries taken from the results while the
// report is built give the same page, byte for byte, as a second read of every result file —
// clipped values, hostile text, deep objects and all — and the spool leaves nothing behind.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readResults, resultNames } from '../../../src/report/aggregate.ts';
import { reportOf } from '../../support/report.ts';
import { PageBudget, TrialPageSpool } from '../../../src/report/html-spool.ts';
import { trialEntry, writeHtmlReport } from '../../../src/report/html.ts';
import type { TrialResult } from '../../../src/types.ts';
import { trial } from './fixtures.ts';
import { tempDir } from '../../support/cli.ts';

function runFolder(results: TrialResult[]): string {
  const dir = tempDir('benchrig-spool-');
  mkdirSync(join(dir, 'results'));
  for (const r of results) writeFileSync(join(dir, 'results', `${r.task_id}.json`), JSON.stringify(r, null, 2));
  return dir;
}

const report = (results: Iterable<TrialResult> | AsyncIterable<TrialResult>) =>
  reportOf(results, { benchmark: { name: 'b', n_samples: 3 }, agent: 'a' });

function deep(n: number): Record<string, unknown> {
  let v: Record<string, unknown> = { leaf: 'x' };
  for (let i = 0; i < n; i++) v = { v };
  return v;
}

describe('report.html from a spool of trial entries', () => {
  it('is the same page as the one made from a second pass over the result files', async () => {
    const huge = 'y'.repeat(200_000);
    const results = [
      trial('s1', 'PASSED', { response: '</script><script>alert(1)</script>\u2028&', final_state: { big: huge } }),
      trial('s2', 'FAILED', {
        events: Array.from({ length: 3000 }, (_, i) => ({
          type: 'log',
          level: 'info',
          message: `line ${i}`,
          step: i + 1,
          ts: i,
        })),
      }),
      trial('s3', 'AGENT_ERROR', { artifacts: deep(20), error: { kind: 'agent', message: 'boom' } }),
    ];
    const dir = runFolder(results);
    const twoPass = join(dir, 'two-pass.html');
    await writeHtmlReport(dir, await report(readResults(dir)), twoPass);

    const names = await resultNames(dir);
    const spool = await TrialPageSpool.open(join(dir, '.tmp'), trialEntry(names.length));
    const onePass = join(dir, 'one-pass.html');
    await writeHtmlReport(dir, await report(spool.tee(readResults(dir, names))), onePass, spool);
    await spool.dispose();

    const page = readFileSync(onePass, 'utf8');
    expect(page).toBe(readFileSync(twoPass, 'utf8'));
    expect(page).toContain('characters cut'); // the clipped values went through the spool too
    expect(page).not.toContain('</script><script>alert(1)');
    expect(readdirSync(join(dir, '.tmp'))).toEqual([]);
  });

  it('a spool that cannot write says so and the report still gets every result', async () => {
    const results = [trial('s1', 'PASSED'), trial('s2', 'FAILED')];
    const dir = runFolder(results);
    const spool = await TrialPageSpool.open(join(dir, '.tmp'), () => {
      throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    });
    const r = await report(spool.tee(readResults(dir)));
    expect(r.metrics.n_trials).toBe(2);
    expect(spool.failed).toBe(true);
    await spool.dispose();
    expect(existsSync(spool.path)).toBe(false);
  });

  it('of a large run, makes no entry once its share is full: every trial in order, then those that did not pass', async () => {
    const results = [
      ...Array.from({ length: 100 }, (_, i) => trial(`p${i}`, 'PASSED')),
      ...Array.from({ length: 5 }, (_, i) => trial(`f${i}`, 'FAILED')),
    ];
    const made: string[] = [];
    const entry = (r: TrialResult) => (made.push(r.sample_id), JSON.stringify(r.sample_id).padEnd(300));
    const dir = tempDir('benchrig-spool-');
    const spool = await TrialPageSpool.open(dir, entry, new PageBudget({ all: 1000, more: 500 }));
    try {
      await report(spool.tee(results));
      // three passes fit, the fourth closes their share; two failures fill the rest
      expect(made).toEqual(['p0', 'p1', 'p2', 'p3', 'f0', 'f1']);
      expect([spool.budget.shown, spool.budget.left]).toEqual([5, 100]);
      let page = '';
      for await (const chunk of spool.chunks()) page += chunk.toString();
      expect(JSON.parse(`[${page}]`)).toEqual(['p0', 'p1', 'p2', 'f0', 'f1']);
    } finally {
      await spool.dispose();
    }
  });
});
