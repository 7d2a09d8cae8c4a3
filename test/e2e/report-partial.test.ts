// The page of a run of more than 10,000 trials (docs/reports.md#reporthtml) in real headless
// Chromium: it holds a selection of the trials and says so; opened as a file it names the commands
// that reach the rest and asks for nothing; served by `benchrig view` it opens a trial it does not
// hold by its task id, from the server it came from.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPage, useBrowser } from '../support/browser.ts';
import { runCli, startView } from '../support/cli.ts';
import { trialResult, writeRun } from './report-run.ts';

const browser = useBrowser();

const N = 10_500;

describe('report.html of a run of more than 10,000 trials', () => {
  it('holds a selection, says so, and opens any other trial through benchrig view', async () => {
    const text = 'a long answer '.repeat(200);
    const trials = Array.from({ length: N }, (_, i) =>
      trialResult(`s${String(i).padStart(5, '0')}-t1`, i % 50 === 3 ? 'FAILED' : 'PASSED', {
        sample_id: `s${String(i).padStart(5, '0')}`,
        prompt: `task ${i}`,
        response: `${text} ${i}`,
      }),
    );
    const { dir } = await writeRun(trials, undefined, { trials: 1 });
    const file = join(dir, 'page.html');
    expect((await runCli(['report', dir, '--format', 'html', '--out', file])).code).toBe(0);
    expect(statSync(file).size).toBeLessThan(20_000_000);

    const o = await openPage(browser(), file);
    const note = await o.page.textContent('#partial-text');
    const m = /This page holds (\d+) of 10500 trials/.exec(note ?? '');
    expect(m).not.toBeNull();
    const shown = Number(m?.[1]);
    expect(shown).toBeGreaterThan(1000);
    expect(shown).toBeLessThan(N);
    expect(note).toContain('benchrig view RUN_DIR');
    expect(await o.page.isVisible('#partial-open')).toBe(false); // a file asks for nothing
    expect(o.foreign).toEqual([]);
    expect(o.errors).toEqual([]);

    // the last passing trial is past the budget: served, the page asks the viewer for it
    const { child, address } = await startView(dir); // writes the run's report.html, as large
    try {
      const served = await openPage(browser(), `${address}#trial=s10499-t1`, {
        allow: (u) => u.startsWith(`${address}trial.json?id=`),
      });
      await served.page.waitForSelector('#detail:not([hidden])', { timeout: 20_000 });
      expect(await served.page.textContent('#detail .trial-head h2 .mono')).toBe('s10499-t1');
      // served, the page offers to open any trial by its id (hidden with the list while a trial shows)
      expect(await served.page.$eval('#partial-open', (n) => (n as HTMLElement).hidden)).toBe(false);
      expect(served.errors).toEqual([]);
    } finally {
      child.kill('SIGINT');
    }
    await child;
  }, 240_000);
});
