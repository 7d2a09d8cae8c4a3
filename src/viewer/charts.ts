// Inline SVG charts drawn by the page's own script: no library, no network. Every label is a
// <text> node (so a hostile check name stays text) and every number a data-* attribute, so a test
// or a reader's tool can check the picture against evaluation_report.json. Each chart is drawn for
// the width its box has, in pixels, and again when that width changes: text never scales, and a
// label that would collide or cross the edge is shortened, moved or left out (svg.ts).
import { attr, el, pct, secs } from './dom.ts';
import { fittedText, LINE, Placer, plot, svg, svgText, textBox, textWidth, type Box, type Draw } from './svg.ts';

/** The width a chart is drawn at while its box has none (a hidden section); redrawn once shown. */
const FALLBACK_WIDTH = 420;

const STATUS_ORDER = [
  'PASSED',
  'FAILED',
  'TIMEOUT',
  'AGENT_ERROR',
  'SANDBOX_ERROR',
  'MODEL_ERROR',
  'UNGRADABLE',
  'AWAITING_REVIEW',
];

/** A figure in `box`: its title, the chart drawn for the figure's width (redrawn when it changes), a note. */
export function mountChart(box: Element, id: string, title: string, draw: Draw, note?: string): HTMLElement {
  const holder = el('div', 'plot-box');
  const f = el('figure', 'chart', [el('figcaption', null, title), holder]);
  f.id = id;
  if (note) f.appendChild(el('div', 'note', note));
  box.appendChild(f);
  let drawnAt = -1;
  const redraw = () => {
    if (!holder.clientWidth && drawnAt > 0) return; // hidden now: redrawn when shown again
    const width = Math.floor(holder.clientWidth) || FALLBACK_WIDTH;
    if (width === drawnAt) return;
    drawnAt = width;
    holder.replaceChildren(draw(width));
  };
  redraw();
  new ResizeObserver(redraw).observe(holder);
  return f;
}

const given = (x: number | null | undefined): x is number => x !== null && x !== undefined;

interface RateRow {
  label: string;
  rate: number | null | undefined;
  low?: number | null;
  high?: number | null;
  note?: string;
  id?: number;
}

const rateText = (r: RateRow) => (given(r.rate) ? pct(r.rate) : 'n/a') + (r.note ? '  ' + r.note : '');

/** Horizontal bars of rates in [0, 1], each with an optional 95% interval whisker. */
export function rateBars(rows: RateRow[], ariaLabel: string): Draw {
  return (width) => {
    const rowH = 24;
    const h = Math.max(1, rows.length) * rowH + 22;
    // the values' column fits the longest value; the labels' column its longest label, up to 40%
    const right = Math.max(textWidth('100%') / 2, ...rows.map((r) => textWidth(rateText(r)))) + 10;
    const longest = Math.max(0, ...rows.map((r) => textWidth(r.label)));
    const left = Math.max(40, Math.min(longest + 10, Math.floor(width * 0.4), width - right - 60));
    const bw = Math.max(20, width - left - right);
    const s = plot(width, h, ariaLabel);
    for (const t of [0, 0.5, 1]) {
      const x = left + t * bw;
      s.appendChild(svg('line', { class: 'axis', x1: x, x2: x, y1: 2, y2: h - 16 }));
      s.appendChild(svgText(x, h - 4, t * 100 + '%', { class: 'muted', 'text-anchor': 'middle' }));
    }
    rows.forEach((r, i) => s.appendChild(rateRow(r, 4 + i * rowH, left, bw)));
    return s;
  };
}

function rateRow(r: RateRow, y: number, left: number, bw: number): SVGElement {
  const g = svg('g', {
    class: 'rate-row',
    'data-label': r.label,
    'data-rate': r.rate,
    'data-low': r.low,
    'data-high': r.high,
  });
  if (r.id !== undefined) g.setAttribute('data-id', String(r.id));
  g.appendChild(fittedText(left - 6, y + 13, r.label, left - 8, { 'text-anchor': 'end', class: 'bar-label' }));
  g.appendChild(svg('rect', { class: 'bar-track', x: left, y: y + 3, width: bw, height: 14, rx: 2 }));
  if (given(r.rate)) {
    const cls = r.rate >= 0.5 ? 'bar-pass' : 'bar-fail';
    g.appendChild(svg('rect', { class: cls, x: left, y: y + 3, width: Math.max(1, r.rate * bw), height: 14, rx: 2 }));
  }
  if (given(r.low) && given(r.high)) {
    const x1 = left + r.low * bw;
    const x2 = left + r.high * bw;
    const cy = y + 10;
    g.appendChild(svg('line', { class: 'whisker ci', x1, x2, y1: cy, y2: cy }));
    g.appendChild(svg('line', { class: 'whisker', x1, x2: x1, y1: cy - 5, y2: cy + 5 }));
    g.appendChild(svg('line', { class: 'whisker', x1: x2, x2, y1: cy - 5, y2: cy + 5 }));
  }
  g.appendChild(svgText(left + bw + 6, y + 14, rateText(r), { class: 'value' }));
  return g;
}

const statusClass = (k: string) => 'st-' + k.replace(/[^A-Z_]/g, '');

/** One stacked bar of trial statuses with a legend that names each status and its count. */
export function statusBar(counts: Record<string, number>): Draw {
  const keys = STATUS_ORDER.filter((k) => counts[k] > 0);
  for (const k of Object.keys(counts)) if (keys.indexOf(k) < 0 && counts[k] > 0) keys.push(k);
  const total = keys.reduce((a, k) => a + counts[k], 0);
  const legend = keys.map(
    (k) => k + '  ' + counts[k] + '  (' + (total ? ((counts[k] / total) * 100).toFixed(1) : '0') + '%)',
  );
  return (width) => {
    const itemW = Math.max(0, ...legend.map((t) => textWidth(t))) + 15 + 16;
    const cols = Math.max(1, Math.floor(width / itemW));
    const h = 40 + Math.ceil(keys.length / cols) * 18;
    const s = plot(width, h, 'trial statuses');
    const bw = width - 2;
    let x = 0;
    for (const k of keys) {
      const w = total ? (counts[k] / total) * bw : 0;
      const g = svg('g', { class: 'status-seg', 'data-status': k, 'data-count': counts[k] });
      const r = svg('rect', { class: statusClass(k), x: 1 + x, y: 4, width: Math.max(0, w - 1), height: 22 });
      r.appendChild(svg('title', null, k + ': ' + counts[k]));
      g.appendChild(r);
      if (w > textWidth(String(counts[k]), true) + 8)
        g.appendChild(svgText(1 + x + w / 2, 19, String(counts[k]), { 'text-anchor': 'middle', class: 'seg-label' }));
      s.appendChild(g);
      x += w;
    }
    keys.forEach((k, i) => {
      const lx = (i % cols) * (width / cols) + 2;
      const ly = 36 + Math.floor(i / cols) * 18;
      const g = svg('g', { class: 'legend-item', 'data-status': k, 'data-count': counts[k] });
      g.appendChild(svg('rect', { class: statusClass(k), x: lx, y: ly, width: 10, height: 10 }));
      g.appendChild(svgText(lx + 15, ly + 9, legend[i]));
      s.appendChild(g);
    });
    if (!keys.length) s.appendChild(svgText(4, 18, 'no trials'));
    return s;
  };
}

/** Trial durations in equal bins from 0 to `max`. */
function bin(times: number[], max: number): number[] {
  const nb = Math.max(1, Math.min(24, Math.ceil(Math.sqrt(times.length))));
  const bins: number[] = new Array<number>(nb).fill(0);
  for (const t of times) bins[Math.min(nb - 1, Math.floor(t / (max / nb)))]++;
  return bins;
}

/** A histogram of trial durations with the report's p50 and p95 marked. */
export function histogram(times: number[], p50: number | null | undefined, p95: number | null | undefined): Draw {
  return (width) => {
    const h = 164;
    const top = 2 * LINE + 8; // two rows for the markers' labels, should they be close
    const bottom = 22;
    const ph = h - top - bottom;
    const s = plot(width, h, 'trial durations');
    attr(s, 'data-p50', p50);
    attr(s, 'data-p95', p95);
    attr(s, 'data-n', times.length);
    if (!times.length) {
      s.appendChild(svgText(4, 18, 'no durations recorded'));
      return s;
    }
    const max = Math.max(...times, p95 || 0) || 1;
    const bins = bin(times, max);
    const top1 = Math.max(...bins) || 1;
    const left = textWidth(String(top1)) + 8;
    const pw = width - left - 8;
    const nb = bins.length;
    s.appendChild(svg('line', { class: 'axis', x1: left, x2: left + pw, y1: top + ph, y2: top + ph }));
    bins.forEach((c, i) => {
      const bh = (c / top1) * ph;
      const lo = i * (max / nb);
      const hi = (i + 1) * (max / nb);
      const g = svg('g', { class: 'bin', 'data-lo': +lo.toFixed(4), 'data-hi': +hi.toFixed(4), 'data-count': c });
      const x = left + (i * pw) / nb + 0.5;
      const r = svg('rect', { class: 'bar-time', x, y: top + ph - bh, width: Math.max(0.5, pw / nb - 1), height: bh });
      r.appendChild(svg('title', null, c + ' trial(s) of ' + secs(lo) + '\u2013' + secs(hi)));
      g.appendChild(r);
      s.appendChild(g);
    });
    const placer = new Placer(width, h);
    const axis = (x: number, y: number, text: string, anchor: 'start' | 'end') => {
      const b = placer.place([textBox(x, y, textWidth(text), anchor)]);
      if (b) s.appendChild(svgText(x, y, text, { class: 'muted', 'text-anchor': anchor }));
    };
    axis(left - 4, top + ph, '0', 'end');
    axis(left - 4, top + 10, String(top1), 'end');
    axis(left + pw, h - 6, secs(max), 'end');
    axis(left, h - 6, '0s', 'start');
    markers(s, placer, { p50, p95 }, { x: (at) => left + (at / max) * pw, top, bottom: top + ph });
    return s;
  };
}

/**
 * p50 and p95 as dashed lines, each labelled beside its line: p50 to its left, p95 to its right, on the
 * row just above the plot, or the row above that when they are too close (or near an edge).
 */
function markers(
  s: SVGElement,
  placer: Placer,
  at: { p50: number | null | undefined; p95: number | null | undefined },
  frame: { x: (v: number) => number; top: number; bottom: number },
): void {
  const rows = [frame.top - 6, frame.top - 6 - LINE];
  (['p50', 'p95'] as const).forEach((name) => {
    const v = at[name];
    if (!given(v)) return;
    const x = frame.x(v);
    const text = name + ' ' + secs(v);
    const w = textWidth(text);
    const sides: Array<'start' | 'end'> = name === 'p50' ? ['end', 'start'] : ['start', 'end'];
    const spots = rows.flatMap((y) => sides.map((anchor) => ({ y, anchor, x: anchor === 'start' ? x + 3 : x - 3 })));
    const boxes: Box[] = spots.map((p) => textBox(p.x, p.y, w, p.anchor));
    const got = placer.place(boxes);
    const spot = got ? spots[boxes.indexOf(got)] : null;
    const y1 = spot ? spot.y - LINE + 5 : frame.top - 4;
    s.appendChild(svg('line', { class: 'marker ' + name, x1: x, x2: x, y1, y2: frame.bottom }));
    if (spot)
      s.appendChild(
        svgText(spot.x, spot.y, text, {
          class: 'marker-label',
          'data-marker': name,
          'data-value': v,
          'text-anchor': spot.anchor,
        }),
      );
  });
}
