import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { reportOf } from '../../support/report.ts';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  clipFor,
  escapeHtml,
  pageTrial,
  renderHtmlReport,
  REPORT_CSP,
  writeHtmlReport,
} from '../../../src/report/html.ts';
import { REPORT_CSS, REPORT_JS } from '../../../src/report/html-assets.ts';
import type { TrialResult } from '../../../src/types.ts';
import { trial } from './fixtures.ts';
import { transcriptOf, transcriptTrial } from '../../support/transcript-fixture.ts';
import { defined } from '../../support/defined.ts';

const HOSTILE = '</script><script>alert(1)</script><img src=x onerror=alert(1)>\u2028&amp;';

async function page(results: TrialResult[], comparison: Record<string, unknown> | null = null) {
  const report = await reportOf(results, {
    benchmark: { name: `bench ${HOSTILE}` },
    gate: { metric: 'pass_rate', threshold: 0.5 },
  });
  return renderHtmlReport({ ...report, comparison }, results);
}

/** What these tests read of a trial as the page embeds it. */
type PageTrial = { response: string; events: { type: string; message: string }[]; cut: string | null };

/** The embedded data block, read back as the page's script reads it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the page's data, read as loosely as its script reads it
function embedded(html: string): any {
  const m = /<script type="application\/json" id="benchrig-data">([\s\S]*?)<\/script>/.exec(html);
  return JSON.parse(defined(m)[1]);
}

describe('report.html', () => {
  it('embeds the trials as JSON no value can break out of, and reads back unchanged', async () => {
    const r = trial('x', 'FAILED', {
      task_id: HOSTILE,
      response: HOSTILE,
      checks: [{ name: HOSTILE, type: 'exact', passed: false, score: 0, reason: HOSTILE }],
    });
    const html = await page([r]);
    const block = defined(/<script type="application\/json" id="benchrig-data">([\s\S]*?)<\/script>/.exec(html))[1];
    expect(block).not.toMatch(/[<>&\u2028\u2029]/);
    const data = embedded(html);
    expect(data.trials[0].response).toBe(HOSTILE);
    expect(data.trials[0].task_id).toBe(HOSTILE);
    // exactly two script elements: the data and the page's own; no value became markup
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html).not.toContain('<img');
    expect(html).toContain(
      'bench &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;',
    );
  });

  it('allows only its own style and script by hash, and loads nothing', async () => {
    const html = await page([trial('a', 'PASSED')]);
    const hash = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;
    expect(REPORT_CSP).toContain(`default-src 'none'`);
    expect(REPORT_CSP).toContain(`script-src ${hash(REPORT_JS)}`);
    expect(REPORT_CSP).toContain(`style-src ${hash(REPORT_CSS)}`);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${escapeHtml(REPORT_CSP)}">`);
    expect(html).toContain(`<script>${REPORT_JS}</script>`);
    expect(html).not.toMatch(/\b(src|href)="(https?:)?\/\//);
    expect(REPORT_JS).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(/);
    // eslint-disable-next-line no-control-regex -- all of ASCII, control characters included
    expect(REPORT_JS).toMatch(/^[\x00-\x7f]*$/);
  });

  it('cuts huge values keeping head and tail, and says how much', () => {
    const huge = `HEAD${'x'.repeat(1_000_000)}TAIL`;
    const events = Array.from({ length: 5000 }, (_, i) => ({
      step: i + 1,
      ts: i,
      type: 'log' as const,
      level: 'info' as const,
      message: `line ${i}`,
    }));
    const t = pageTrial(trial('a', 'PASSED', { response: huge, events }), clipFor(10_000)) as PageTrial;
    expect(t.response.length).toBeLessThan(10_000);
    expect(t.response.startsWith('HEAD')).toBe(true);
    expect(t.response.endsWith('TAIL')).toBe(true);
    expect(t.response).toMatch(/\[\d+ characters cut\]/);
    expect(t.events.length).toBeLessThan(100);
    expect(t.events.some((e) => e.type === 'cut' && /\d+ events cut/.test(e.message))).toBe(true);
    expect(t.events.at(-1)?.message).toBe('line 4999');
    expect(t.cut).toMatch(/shortened the trial by \d+ characters and \d+ events/);
    const small = pageTrial(trial('a', 'PASSED', { response: 'short' }), clipFor(10)) as PageTrial;
    expect([small.response, small.cut]).toEqual(['short', null]);
  });

  it("keeps a trial's transcript as its messages once and the calls' keys, cut to the trial's share", async () => {
    const t = pageTrial(transcriptTrial(trial('a', 'PASSED'), 'three'), clipFor(1)) as unknown as {
      transcript: { messages: Record<string, { role: string; text: string }>; calls: unknown[]; tool_sets: unknown[] };
    };
    expect(t.transcript.calls.map((c) => (c as { input: string[] }).input.length)).toEqual([2, 4, 2, 1]);
    // two calls offered the same tool: its definition is in the page once, both calls point at it
    expect(t.transcript.tool_sets).toHaveLength(1);
    expect(t.transcript.calls.map((c) => (c as { tools?: number }).tools)).toEqual([0, 0, undefined, undefined]);
    expect(Object.values(t.transcript.messages).filter((m) => m.role === 'system')).toHaveLength(2);

    // a transcript past the trial's share of the page: every long message cut, the page says so
    const long = (i: number) => ({ role: 'user' as const, content: `${i}:${'z'.repeat(40_000)}` });
    const big = transcriptOf(
      Array.from({ length: 40 }, (_, i) => ({ source: 'agent' as const, input: [long(i)], output: null })),
    );
    const clip = clipFor(100);
    const cut = pageTrial({ ...trial('b', 'PASSED'), transcript: big } as TrialResult, clip) as unknown as {
      transcript: { messages: Record<string, { text: string }> };
      cut: string;
    };
    const texts = Object.values(cut.transcript.messages).map((m) => m.text);
    expect(texts).toHaveLength(40);
    expect(texts.reduce((n, s) => n + s.length, 0)).toBeLessThan(clip.maxTranscript);
    expect(texts.every((s) => /\[\d+ characters cut\]/.test(s))).toBe(true);
    expect(cut.cut).toMatch(/shortened the trial by \d+ characters/);
  });

  it('10,000 trials stay within a page a browser opens', async () => {
    const big = 'y'.repeat(20_000);
    const results = Array.from({ length: 10_000 }, (_, i) =>
      trial(`s${i}`, i % 3 ? 'PASSED' : 'FAILED', { task_id: `s${i}`, response: big, prompt: big }),
    );
    const html = await page(results);
    expect(html.length).toBeLessThan(80_000_000);
    expect(embedded(html).trials).toHaveLength(10_000);
  }, 60_000);

  it('a run of more than 10,000 trials embeds every trial up to its budget, then those that did not pass, and says so', async () => {
    const text = 'z'.repeat(3_000);
    const results = Array.from({ length: 12_000 }, (_, i) =>
      trial(`s${i}`, i % 100 === 7 ? 'FAILED' : 'PASSED', { task_id: `s${i}`, response: text, prompt: text }),
    );
    const html = await page(results);
    expect(Buffer.byteLength(html)).toBeLessThan(20_000_000);
    const data = embedded(html);
    const shown: Array<{ task_id: string; status: string }> = data.trials;
    expect(data.partial).toEqual({ trials: 12_000, trials_shown: shown.length, tasks: 12_000, tasks_shown: 12_000 });
    expect(shown.length).toBeLessThan(12_000);
    // in order up to the budget, then only the failures after it: every failure is there
    const ids = shown.map((t) => t.task_id);
    expect(ids.slice(0, 100)).toEqual(results.slice(0, 100).map((r) => r.task_id));
    const failed = results.filter((r) => r.status === 'FAILED').map((r) => r.task_id);
    expect(failed.every((id) => ids.includes(id))).toBe(true);
    const lastPassed = shown.map((t) => t.status).lastIndexOf('PASSED');
    expect(shown.slice(lastPassed + 1).every((t) => t.status === 'FAILED')).toBe(true);
    expect(shown.slice(lastPassed + 1).length).toBeGreaterThan(0);
    // a page of fewer trials holds them all and says nothing
    expect(embedded(await page(results.slice(0, 300))).partial).toBeUndefined();
  }, 60_000);

  it('shows the summary numbers, the gate and a comparison when there is one', async () => {
    const html = await page([trial('a', 'PASSED'), trial('b', 'FAILED')], {
      baseline: { id: 'old', dir: 'evals/old' },
      new_failures: [{ sample_id: 'b' }],
      regressions: [],
      fixed: [],
    });
    expect(html).toContain('<div class="v">50.0%</div>');
    expect(html).toContain('gate PASSED: pass_rate 0.5 ≥ 0.5');
    expect(html).toContain('<h2>compared with evals/old</h2>');
    expect(html).toContain('<li data-list="new_failures">new failures (1): b</li>');
  });

  it('an incomplete run: the missing share next to the pass rate, and the gate fails as incomplete', async () => {
    const html = await page([trial('a', 'PASSED'), trial('b', 'SANDBOX_ERROR'), trial('c', 'AWAITING_REVIEW')]);
    expect(html).toMatch(/id="m-missing"[\s\S]*?<div class="v">66\.7%<\/div>[\s\S]*?2 of 3 trials without a verdict/);
    expect(html).toContain('gate FAILED: incomplete: 2 of 3 trials without a verdict (pass_rate 1 ≥ 0.5)');
    expect(await page([trial('a', 'PASSED')])).not.toContain('m-missing');
  });

  it('written from the result files, streamed, is the same page as rendered whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'benchrig-html-'));
    try {
      mkdirSync(join(dir, 'results'));
      const results = Array.from({ length: 30 }, (_, i) =>
        trial(`s${String(i).padStart(2, '0')}`, i % 4 ? 'PASSED' : 'FAILED', {
          task_id: `s${String(i).padStart(2, '0')}`,
          response: `${HOSTILE} ${i}`,
          md: { execution_time_s: (i * 7) % 11 },
        }),
      );
      for (const r of results) writeFileSync(join(dir, 'results', `${r.task_id}.json`), JSON.stringify(r));
      const report = await reportOf(results, {
        benchmark: { name: 'b', n_samples: 30 },
        agent: 'a',
        run: { dir, mode: 'threads', workers: 2 },
      });
      await writeHtmlReport(dir, report);
      const written = readFileSync(join(dir, 'report.html'), 'utf8');
      expect(written).toBe(await renderHtmlReport(report, results));
      expect(embedded(written).trials).toHaveLength(30);
      expect(readdirSync(dir).sort()).toEqual(['report.html', 'results']); // no temp file left behind
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
