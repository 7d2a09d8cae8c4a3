// report.html opened in real headless Chromium (Debian's chromium via playwright-core), as a reader
// would: the numbers, the filters, a trial's tool calls, and hostile replies that stay text.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { FIXTURES, onlyRunDir, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';
import { openPage, useBrowser, type Opened } from '../support/browser.ts';
import { writeRun } from './report-run.ts';

const hasDocker = await requireDocker();

const browser = useBrowser();
const open = (file: string): Promise<Opened> => openPage(browser(), file);

const rowIds = (page: Page) => page.$$eval('#trials tbody tr', (trs) => trs.map((tr) => tr.getAttribute('data-id')));

describe('report.html in headless Chromium', () => {
  it('shows the right numbers, filters by status and check, sorts, and opens a trial with its tool calls', async () => {
    const { dir } = await writeRun();
    const file = join(dir, 'page.html');
    const r = await runCli(['report', dir, '--format', 'html', '--out', file]);
    expect(r.code, r.stderr).toBe(0);
    const { page, dialogs, foreign, errors } = await open(file);

    expect(await page.textContent('#m-pass-rate .v')).toBe('50.0%'); // 3 passed of 6 gradable
    expect(await page.textContent('#m-passed .v')).toBe('3/6');
    expect(await page.textContent('#gate')).toBe(
      'gate FAILED: incomplete: 1 of 7 trials without a verdict (pass_rate 0.5 < 0.8)',
    );
    expect(await page.textContent('[data-status="SANDBOX_ERROR"]')).toBe('1');
    expect(await page.textContent('.checks-table')).toContain('judge');

    expect(await rowIds(page)).toHaveLength(7);
    await page.selectOption('#f-status', 'FAILED');
    expect((await rowIds(page)).sort()).toEqual(['alpha-t2', 'evil-t1']);
    await page.selectOption('#f-status', 'FAILING');
    expect((await rowIds(page)).sort()).toEqual(['alpha-t2', 'evil-t1', 'gamma-t1']);
    await page.selectOption('#f-status', '');
    await page.selectOption('#f-check', 'judge');
    await page.selectOption('#f-verdict', 'passed');
    expect((await rowIds(page)).sort()).toEqual(['alpha-t1', 'beta-t1', 'beta-t2']);
    await page.selectOption('#f-check', '');

    await page.click('#trials th[data-col="time"]');
    expect((await rowIds(page))[0]).toBe('delta-t1');
    await page.click('#trials th[data-col="time"]');
    expect((await rowIds(page))[0]).toBe('evil-t1');

    await page.click('#trials tr[data-id="alpha-t1"]');
    const detail = (await page.textContent('#detail')) ?? '';
    expect(await page.isVisible('#detail')).toBe(true);
    expect(await page.textContent('#detail details.tool summary')).toBe('bashwc -l notes.txtexit 00.10s');
    expect(detail).toContain('3 notes.txt');
    expect(detail).toContain('trace-alpha-t1');
    expect(detail).toContain('sandbox_test:tests pass');
    // the judge's per-criterion scores, rendered from the check's details
    expect(await page.textContent('#detail [data-check="judge"]')).toContain('scored 4.50 of 5, needs 4');
    expect(await page.textContent('#detail table.criteria tr[data-criterion="correct"]')).toBe(
      'correct5checked the numbers',
    );
    expect(detail).toContain('weighted_score4.5');

    expect(dialogs).toEqual([]);
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('renders a hostile reply as text: no dialog, no injected element, huge output cut with head and tail', async () => {
    const { dir } = await writeRun();
    const file = join(dir, 'page.html');
    expect((await runCli(['report', dir, '--format', 'html', '--out', file])).code).toBe(0);
    const html = readFileSync(file, 'utf8');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');

    const { page, dialogs, foreign, errors } = await open(`${file}`);
    await page.goto(`${pathToFileURL(file).href}#trial=evil-t1`);
    await page.waitForSelector('#detail:not([hidden])');
    await page.click('#detail details.tool summary');
    const detail = (await page.textContent('#detail')) ?? '';
    expect(detail).toContain('<script>alert(1)</script><img src=x onerror=alert(2)>');
    expect(detail).toContain('THE-END'); // the tail of a 300,000-character output is kept
    expect(detail).toMatch(/\d+ characters cut/);
    expect(await page.textContent('.top-failures')).toContain('<img src=x onerror=alert(2)>');
    expect(await page.$$('img')).toHaveLength(0);
    expect(await page.$$('[onerror]')).toHaveLength(0);
    expect(await page.$$eval('script', (s) => s.length)).toBe(2); // the data block and the page's own
    await page.waitForTimeout(300);
    expect(dialogs).toEqual([]);
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('a page of 200 rows out of 2,500 trials, with a next page', async () => {
    const { trialResult } = await import('./report-run.ts');
    const many = Array.from({ length: 2500 }, (_, i) =>
      trialResult(`s${String(i).padStart(4, '0')}-t1`, i % 5 === 0 ? 'FAILED' : 'PASSED', {}, i / 100),
    );
    const { dir } = await writeRun(many);
    const file = join(dir, 'page.html');
    expect((await runCli(['report', dir, '--format', 'html', '--out', file])).code).toBe(0);
    const { page, errors } = await open(file);
    expect(await rowIds(page)).toHaveLength(200);
    expect(await page.textContent('#trials .pager')).toContain('1–200 of 2500');
    await page.click('#trials .pager button:has-text("next")');
    expect((await rowIds(page))[0]).toBe('s0200-t1');
    await page.selectOption('#f-status', 'FAILED');
    expect(await page.textContent('#trials .pager')).toContain('of 500 (filtered from 2500)');
    expect(errors).toEqual([]);
  });

  it.skipIf(!hasDocker)(
    "the report.html of a real sandboxed run shows the oracle's tool calls",
    async () => {
      const out = tempDir();
      const r = await runCli([
        'run',
        join(FIXTURES, 'benchmarks/mini-shell'),
        '--agent',
        'oracle',
        '--mode',
        'single',
        '--output',
        out,
        '--quiet',
      ]);
      expect(r.code, r.stderr).toBe(0);
      const dir = onlyRunDir(out, 'oracle', 'mini-shell');
      const { page, dialogs, foreign, errors } = await open(join(dir, 'report.html'));
      expect(await page.textContent('#m-pass-rate .v')).toBe('100.0%');
      expect(await page.textContent('#gate')).toContain('PASSED');
      await page.click('#trials tr[data-id="count"]');
      const detail = (await page.textContent('#detail')) ?? '';
      expect(await page.textContent('#detail details.tool summary')).toContain('wc -l < in.txt');
      expect(detail).toContain('1 passed, 0 failed'); // the sandbox_test artifact
      expect([dialogs, foreign, errors]).toEqual([[], [], []]);
    },
    180_000,
  );
});
