// The charts read at any width, in real Chromium: history (30 runs with long names, close rates,
// changes of version), compare (runs whose long names differ only at the end) and a run report
// (p50 ≈ p95, long check names, every status, pass@k over 12 trials) at 800, 1100 and 1600 px. For
// every <text> of every chart: its box overlaps no other text's and lies inside its SVG, whose box lies
// inside its figure; its size on screen stays between 10 and 16 CSS pixels.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { CheckVerdict, TrialResult } from '../../src/types.ts';
import { openPage, SHOTS, useBrowser } from '../support/browser.ts';
import { runCli, tempDir } from '../support/cli.ts';
import { trialResult, writeRun } from './report-run.ts';

const browser = useBrowser();

const WIDTHS = [800, 1100, 1600];

interface TextBox {
  text: string;
  x: number;
  y: number;
  w: number;
  h: number;
  px: number;
}
interface ChartShape {
  id: string;
  svg: { x: number; y: number; w: number; h: number };
  figure: { x: number; y: number; w: number; h: number };
  texts: TextBox[];
}

/** Every chart's SVG, its figure and its texts as laid out on screen. */
async function chartShapes(page: Page): Promise<ChartShape[]> {
  return page.$$eval('figure.chart', (figs) =>
    figs.flatMap((fig) => {
      const svg = fig.querySelector('svg.plot');
      if (!(svg instanceof SVGSVGElement)) return [];
      const box = (r: DOMRect) => ({ x: r.x, y: r.y, w: r.width, h: r.height });
      const scale = svg.getScreenCTM()?.a ?? NaN; // CSS pixels per unit of the viewBox
      const texts = [...svg.querySelectorAll('text')].map((t) => ({
        text: [...t.childNodes]
          .filter((n) => n.nodeType === Node.TEXT_NODE)
          .map((n) => n.nodeValue)
          .join(''),
        ...box(t.getBoundingClientRect()),
        px: parseFloat(getComputedStyle(t).fontSize) * scale,
      }));
      return [{ id: fig.id, svg: box(svg.getBoundingClientRect()), figure: box(fig.getBoundingClientRect()), texts }];
    }),
  );
}

const EPS = 0.5;
const inside = (a: { x: number; y: number; w: number; h: number }, b: typeof a) =>
  a.x >= b.x - EPS && a.y >= b.y - EPS && a.x + a.w <= b.x + b.w + EPS && a.y + a.h <= b.y + b.h + EPS;
const overlap = (a: TextBox, b: TextBox) =>
  a.x < b.x + b.w - EPS && b.x < a.x + a.w - EPS && a.y < b.y + b.h - EPS && b.y < a.y + a.h - EPS;

/** Every problem of the charts on the page at this width, in words (an empty list when they read). */
function problems(shapes: ChartShape[], width: number): string[] {
  const out: string[] = [];
  for (const c of shapes) {
    const where = `${c.id} at ${width}px`;
    if (!inside(c.svg, c.figure))
      out.push(`${where}: the SVG (${c.svg.w}px) is wider than its figure (${c.figure.w}px)`);
    c.texts.forEach((t, i) => {
      if (!(t.px >= 10 && t.px <= 16)) out.push(`${where}: "${t.text}" is ${t.px.toFixed(1)}px`);
      if (!inside(t, c.svg)) out.push(`${where}: "${t.text}" is clipped by the SVG's edge`);
      for (const u of c.texts.slice(i + 1)) if (overlap(t, u)) out.push(`${where}: "${t.text}" overlaps "${u.text}"`);
    });
  }
  return out;
}

/** The page at each width: the charts read, and `more` checks what a reader needs to see. */
async function atEveryWidth(file: string, name: string, more: (shapes: ChartShape[], width: number) => void) {
  const o = await openPage(browser(), file);
  try {
    for (const width of WIDTHS) {
      await o.page.setViewportSize({ width, height: 900 });
      // the charts redraw for their new width on the next frames (a ResizeObserver)
      await o.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const shapes = await chartShapes(o.page);
      expect(shapes.length).toBeGreaterThan(0);
      expect(problems(shapes, width)).toEqual([]);
      more(shapes, width);
      await o.page.locator('#charts').screenshot({ path: join(SHOTS, `charts-${name}-${width}.png`) });
    }
    expect(o.errors).toEqual([]);
  } finally {
    await o.page.context().close();
  }
}

const shown = (c: ChartShape | undefined, re: RegExp) => (c?.texts ?? []).filter((t) => re.test(t.text));
const chart = (shapes: ChartShape[], id: string) => shapes.find((c) => c.id === id);

describe('charts that read at 800, 1100 and 1600 px', () => {
  it('history: 30 runs with long names, close pass rates and changes of version', async () => {
    const parent = join(tempDir('benchrig-charts-'), 'an-agent', 'fixed-bench');
    for (let i = 0; i < 30; i++) {
      const passing = [5, 6, 5, 6, 7, 6, 5, 10, 0, 6][i % 10];
      const trials = Array.from({ length: 10 }, (_, j) =>
        trialResult(`s${j}`, j < passing ? 'PASSED' : 'FAILED', {}, 1),
      );
      const day = String(i + 1).padStart(2, '0');
      // run ids that differ in the middle: each is named by its unique suffix, which stays long
      const dir = join(parent, `202501${day}-000000-nightly-${i}-experiment-with-a-long-name`);
      mkdirSync(dir, { recursive: true });
      await writeRun(trials, dir, {
        version: i < 12 ? 'v1' : i < 20 ? 'v2' : 'v3',
        startedAt: `2025-01-${day}T00:00:00.000Z`,
      });
    }
    // a run that never finished: no report, so no rate
    const unfinished = join(parent, '20250131-000000-unfinished');
    mkdirSync(unfinished);
    writeFileSync(
      join(unfinished, 'run.json'),
      JSON.stringify({ started_at: '2025-01-31T00:00:00.000Z', status: 'running', benchmark: { version: 'v3' } }),
    );
    const out = join(tempDir(), 'history.html');
    const r = await runCli(['history', parent, '--format', 'html', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    await atEveryWidth(out, 'history', (shapes) => {
      const trend = chart(shapes, 'chart-trend');
      // most runs keep their name under the axis, and the first and last always
      const names = shown(trend, /^(\d+-exp|unfinished)/);
      expect(names.length).toBeGreaterThanOrEqual(20);
      expect(names[0].text).toMatch(/^0-exp/);
      expect(names.at(-1)?.text).toBe('unfinished');
      expect(shown(trend, /^\d+\.\d%$/).length).toBeGreaterThanOrEqual(8); // value labels, where they fit
      expect(shown(trend, /^gate 80\.0%$/)).toHaveLength(1);
    });
  }, 120_000);

  it('compare: four runs whose long names differ only at the end stay told apart', async () => {
    const root = tempDir('benchrig-charts-');
    const dirs: string[] = [];
    for (let i = 0; i < 4; i++) {
      const trials = Array.from({ length: 6 }, (_, j) => trialResult(`s${j}`, j <= i + 1 ? 'PASSED' : 'FAILED'));
      const agentId = `team-experimental-react-agent-with-many-tools-and-a-long-name-v${i + 1}`;
      const { dir } = await writeRun(trials, join(root, agentId, 'fixed-bench', '20250101-000000'), { agentId });
      dirs.push(dir);
    }
    const out = join(tempDir(), 'compare.html');
    const r = await runCli(['compare', ...dirs, '--format', 'html', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    await atEveryWidth(out, 'compare', (shapes) => {
      const labels = shown(chart(shapes, 'chart-runs'), /team/).map((t) => t.text);
      expect(labels).toHaveLength(4);
      expect(new Set(labels).size).toBe(4); // what tells them apart is drawn
      for (const [i, l] of labels.entries()) expect(l).toMatch(new RegExp(`v${i + 1}$`));
    });
  }, 120_000);

  it('a run report: p50 ≈ p95, long check names, every status and pass@k over 12 trials', async () => {
    const long = (n: number) => `check ${n}: the reply cites the refund policy and the order number in full`;
    const verdicts = (passed: boolean): CheckVerdict[] =>
      [1, 2, 3].map((n) => ({ name: long(n), type: 'contains', passed, score: passed ? 1 : 0, reason: 'r' }));
    const trials: TrialResult[] = [];
    for (let s = 0; s < 4; s++)
      for (let k = 1; k <= 12; k++) {
        const status = s === 3 && k === 1 ? 'TIMEOUT' : (s + k) % 3 === 0 ? 'FAILED' : 'PASSED';
        const ok = status === 'PASSED';
        trials.push(trialResult(`task${s}-t${k}`, status, { checks: verdicts(ok) }, 1 + (s * 12 + k) / 10000));
      }
    const error = (kind: 'agent' | 'sandbox') => ({ error: { kind, message: 'x' }, stop_reason: 'error' as const });
    trials.push(trialResult('task4-t1', 'AGENT_ERROR', error('agent'), 1.001));
    trials.push(trialResult('task5-t1', 'SANDBOX_ERROR', error('sandbox'), 1.002));
    const { dir } = await writeRun(trials, tempDir('benchrig-charts-'), { trials: 12 });
    const out = join(dir, 'page.html');
    const r = await runCli(['report', dir, '--format', 'html', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    await atEveryWidth(out, 'report', (shapes) => {
      const durations = chart(shapes, 'chart-durations');
      expect(shown(durations, /^p50 /)).toHaveLength(1);
      expect(shown(durations, /^p95 /)).toHaveLength(1);
      expect(shown(chart(shapes, 'chart-checks'), /^check \d/).map((t) => t.text.slice(0, 7))).toEqual([
        'check 1',
        'check 2',
        'check 3',
      ]);
      const ks = shown(chart(shapes, 'chart-pass-k'), /^k=\d+$/).map((t) => t.text);
      expect(ks).toContain('k=1');
      expect(ks).toContain('k=12');
      expect(shown(chart(shapes, 'chart-status'), /SANDBOX_ERROR/)).toHaveLength(1);
    });
  }, 120_000);
});
