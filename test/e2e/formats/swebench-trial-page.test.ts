// SWE-bench's part of the trial page (src/formats/swebench/view.ts) in real headless Chromium: the
// model patch as a diff whose lines are marked added, removed, hunk or file; tests_status as a table of
// FAIL_TO_PASS / PASS_TO_PASS tests, failures first; neither under "other fields". A hostile patch
// line and test name stay text: no dialog, no foreign request, no element made of them.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TrialResult } from '../../../src/types.ts';
import { openPage, screenshot, useBrowser } from '../../support/browser.ts';
import { runCli } from '../../support/cli.ts';
import { HOSTILE, trialResult, writeRun } from '../report-run.ts';

const browser = useBrowser();

const PATCH = [
  'diff --git a/calc.py b/calc.py',
  '--- a/calc.py',
  '+++ b/calc.py',
  '@@ -1,3 +1,3 @@',
  ' def add(a, b):',
  '-    return a - b',
  '+    return a + b',
  `+# ${HOSTILE}`,
  '',
].join('\n');

function swebenchTrial(taskId: string, patch: string, status: Record<string, unknown>): TrialResult {
  return trialResult(taskId, 'FAILED', {
    checks: [
      {
        name: 'swebench',
        type: 'swebench',
        passed: false,
        score: 0,
        reason: 'not resolved',
        details: {
          patch_is_None: false,
          patch_exists: true,
          patch_successfully_applied: true,
          resolved: false,
          tests_status: status,
        },
      },
    ],
    model_patch: patch,
  });
}

describe('a SWE-bench trial on the trial page', () => {
  it('shows the model patch as a coloured diff and tests_status as a table; hostile names stay text', async () => {
    const trial = swebenchTrial('calc-1-t1', PATCH, {
      FAIL_TO_PASS: { success: ['test_add'], failure: [HOSTILE] },
      PASS_TO_PASS: { success: ['test_sub', 'test_mul'], failure: [] },
      FAIL_TO_FAIL: { success: [], failure: [] },
      PASS_TO_FAIL: { success: [], failure: [] },
    });
    const { dir } = await writeRun([trial]);
    const file = join(dir, 'page.html');
    const r = await runCli(['report', dir, '--format', 'html', '--out', file]);
    expect(r.code, r.stderr).toBe(0);
    const o = await openPage(browser(), file);
    const { page } = o;
    await page.goto(`${page.url().split('#')[0]}#trial=calc-1-t1`);
    await page.waitForSelector('#detail pre.diff');

    const lines = await page.$$eval('#detail pre.diff span', (ns) => ns.map((n) => [n.className, n.textContent]));
    expect(lines).toEqual([
      ['diff-file', 'diff --git a/calc.py b/calc.py\n'],
      ['diff-file', '--- a/calc.py\n'],
      ['diff-file', '+++ b/calc.py\n'],
      ['diff-hunk', '@@ -1,3 +1,3 @@\n'],
      ['diff-ctx', ' def add(a, b):\n'],
      ['diff-del', '-    return a - b\n'],
      ['diff-add', '+    return a + b\n'],
      ['diff-add', `+# ${HOSTILE}\n`],
    ]);
    // Coloured by the page's style: an added line is not a removed one's colour, nor context's.
    const colour = (cls: string) =>
      page.$eval(`#detail pre.diff span.${cls}`, (n) => getComputedStyle(n).backgroundColor);
    const [add, del, ctx] = [await colour('diff-add'), await colour('diff-del'), await colour('diff-ctx')];
    expect(new Set([add, del, ctx]).size).toBe(3);

    const rows = await page.$$eval('#detail table.tests-status tbody tr', (ns) =>
      ns.map((n) => [...n.querySelectorAll('td')].map((td) => td.textContent)),
    );
    expect(rows).toEqual([
      ['FAIL_TO_PASS', HOSTILE, '\u2717 failed'],
      ['FAIL_TO_PASS', 'test_add', '\u2713 passed'],
      ['PASS_TO_PASS', 'test_sub', '\u2713 passed'],
      ['PASS_TO_PASS', 'test_mul', '\u2713 passed'],
    ]);
    const summaries = await page.$$eval('#detail details.panel > summary', (ns) => ns.map((n) => n.textContent));
    expect(summaries).toContain('tests: FAIL_TO_PASS 1/2 passed, PASS_TO_PASS 2/2 passed');
    expect(summaries).toContain('model patch');
    expect(summaries).not.toContain('other fields'); // model_patch is shown in its own place

    // The hostile name and patch line made no element and ran nothing.
    expect(await page.$$eval('#detail img, #detail script', (ns) => ns.length)).toBe(0);
    expect({ dialogs: o.dialogs, foreign: o.foreign, errors: o.errors }).toEqual({
      dialogs: [],
      foreign: [],
      errors: [],
    });
    await screenshot(page, 'swebench-trial-page', true);
    await o.page.context().close();
  }, 60_000);

  it('shows a trial of another kind as before: no diff, no tests table, its unknown fields under "other fields"', async () => {
    const other = trialResult('plain-t1', 'PASSED', { custom_field: 'kept' } as Partial<TrialResult>);
    const { dir } = await writeRun([other]);
    const file = join(dir, 'page.html');
    expect((await runCli(['report', dir, '--format', 'html', '--out', file])).code).toBe(0);
    const o = await openPage(browser(), file);
    await o.page.goto(`${o.page.url().split('#')[0]}#trial=plain-t1`);
    await o.page.waitForSelector('#detail h3');
    expect(await o.page.$$eval('#detail pre.diff, #detail table.tests-status', (ns) => ns.length)).toBe(0);
    const summaries = await o.page.$$eval('#detail details.panel > summary', (ns) => ns.map((n) => n.textContent));
    expect(summaries).toContain('other fields');
    expect(await o.page.textContent('#detail')).toContain('kept');
    await o.page.context().close();
  }, 60_000);
});
