// Inline SVG charts drawn by the page's own script: no library, no network. Every label is a
// <text> node (so a hostile check name stays text) and every number a data-* attribute, so a test
// or a reader's tool can check the picture against evaluation_report.json.
import { attr, el, pct, secs } from './dom.ts';

const SVGNS = 'http://www.w3.org/2000/svg';
const W = 420;

/** Attribute values; null and undefined are left out. */
type Attrs = Record<string, string | number | boolean | null | undefined>;

export const STATUS_ORDER = [
  'PASSED',
  'FAILED',
  'TIMEOUT',
  'AGENT_ERROR',
  'SANDBOX_ERROR',
  'UNGRADABLE',
  'AWAITING_REVIEW',
];

export function svg(tag: string, attrs?: Attrs | null, children?: unknown): SVGElement {
  const n = document.createElementNS(SVGNS, tag);
  if (attrs) {
    for (const k of Object.keys(attrs)) {
      const v = attrs[k];
      if (v !== undefined && v !== null) n.setAttribute(k, String(v));
    }
  }
  if (children !== undefined && children !== null) {
    for (const c of Array.isArray(children) ? children : [children]) {
      if (c === null || c === undefined) continue;
      n.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
    }
  }
  return n;
}

export function svgText(x: number, y: number, text: unknown, attrs?: Attrs): SVGElement {
  const a = attrs || {};
  a.x = x;
  a.y = y;
  return svg('text', a, String(text));
}

export const plot = (w: number, h: number, label: string): SVGElement =>
  svg('svg', { class: 'plot', viewBox: '0 0 ' + w + ' ' + h, role: 'img', 'aria-label': label });

export function chart(id: string, title: string, node: Node, note?: string): HTMLElement {
  const f = el('figure', 'chart', [el('figcaption', null, title), node]);
  f.id = id;
  if (note) f.appendChild(el('div', 'note', note));
  return f;
}

export function clip(text: unknown, n: number): string {
  const s = String(text);
  return s.length > n ? s.slice(0, n - 1) + '\u2026' : s;
}

const given = (x: number | null | undefined): x is number => x !== null && x !== undefined;

export interface RateRow {
  label: string;
  rate: number | null | undefined;
  low?: number | null;
  high?: number | null;
  note?: string;
  id?: number;
}

/** Horizontal bars of rates in [0, 1], each with an optional 95% interval whisker. */
export function rateBars(rows: RateRow[], ariaLabel: string): SVGElement {
  const rowH = 24;
  const left = 150;
  const right = 110;
  const h = Math.max(1, rows.length) * rowH + 22;
  const bw = W - left - right;
  const s = plot(W, h, ariaLabel);
  for (const t of [0, 0.5, 1]) {
    const x = left + t * bw;
    s.appendChild(svg('line', { class: 'axis', x1: x, x2: x, y1: 2, y2: h - 16 }));
    s.appendChild(svgText(x, h - 4, t * 100 + '%', { class: 'muted', 'text-anchor': 'middle' }));
  }
  rows.forEach((r, i) => {
    const y = 4 + i * rowH;
    const g = svg('g', {
      class: 'rate-row',
      'data-label': r.label,
      'data-rate': r.rate,
      'data-low': r.low,
      'data-high': r.high,
    });
    if (r.id !== undefined) g.setAttribute('data-id', String(r.id));
    const label = svgText(left - 6, y + 13, clip(r.label, 24), { 'text-anchor': 'end' });
    label.appendChild(svg('title', null, r.label));
    g.appendChild(label);
    g.appendChild(svg('rect', { class: 'bar-track', x: left, y: y + 3, width: bw, height: 14, rx: 2 }));
    if (given(r.rate))
      g.appendChild(
        svg('rect', {
          class: r.rate >= 0.5 ? 'bar-pass' : 'bar-fail',
          x: left,
          y: y + 3,
          width: Math.max(1, r.rate * bw),
          height: 14,
          rx: 2,
        }),
      );
    if (given(r.low) && given(r.high)) {
      const x1 = left + r.low * bw;
      const x2 = left + r.high * bw;
      const cy = y + 10;
      g.appendChild(svg('line', { class: 'whisker ci', x1, x2, y1: cy, y2: cy }));
      g.appendChild(svg('line', { class: 'whisker', x1, x2: x1, y1: cy - 5, y2: cy + 5 }));
      g.appendChild(svg('line', { class: 'whisker', x1: x2, x2, y1: cy - 5, y2: cy + 5 }));
    }
    g.appendChild(
      svgText(left + bw + 6, y + 14, (given(r.rate) ? pct(r.rate) : 'n/a') + (r.note ? '  ' + r.note : ''), {
        class: 'value',
      }),
    );
    s.appendChild(g);
  });
  return s;
}

/** One stacked bar of trial statuses with a legend that names each status and its count. */
export function statusBar(counts: Record<string, number>): SVGElement {
  const keys = STATUS_ORDER.filter((k) => counts[k] > 0);
  for (const k of Object.keys(counts)) if (keys.indexOf(k) < 0 && counts[k] > 0) keys.push(k);
  const total = keys.reduce((a, k) => a + counts[k], 0);
  const legendRows = Math.ceil(keys.length / 2);
  const h = 40 + legendRows * 18;
  const s = plot(W, h, 'trial statuses');
  const bw = W - 2;
  let x = 0;
  for (const k of keys) {
    const w = total ? (counts[k] / total) * bw : 0;
    const g = svg('g', { class: 'status-seg', 'data-status': k, 'data-count': counts[k] });
    const r = svg('rect', {
      class: 'st-' + k.replace(/[^A-Z_]/g, ''),
      x: 1 + x,
      y: 4,
      width: Math.max(0, w - 1),
      height: 22,
    });
    r.appendChild(svg('title', null, k + ': ' + counts[k]));
    g.appendChild(r);
    if (w > 34)
      g.appendChild(svgText(1 + x + w / 2, 19, String(counts[k]), { 'text-anchor': 'middle', class: 'seg-label' }));
    s.appendChild(g);
    x += w;
  }
  keys.forEach((k, i) => {
    const lx = (i % 2) * (W / 2) + 2;
    const ly = 36 + Math.floor(i / 2) * 18;
    const g = svg('g', { class: 'legend-item', 'data-status': k, 'data-count': counts[k] });
    g.appendChild(svg('rect', { class: 'st-' + k.replace(/[^A-Z_]/g, ''), x: lx, y: ly, width: 10, height: 10 }));
    g.appendChild(
      svgText(
        lx + 15,
        ly + 9,
        k + '  ' + counts[k] + '  (' + (total ? ((counts[k] / total) * 100).toFixed(1) : '0') + '%)',
      ),
    );
    s.appendChild(g);
  });
  if (!keys.length) s.appendChild(svgText(4, 18, 'no trials'));
  return s;
}

/** A histogram of trial durations with the report's p50 and p95 marked. */
export function histogram(times: number[], p50: number | null | undefined, p95: number | null | undefined): SVGElement {
  const h = 150;
  const left = 30;
  const bottom = 22;
  const top = 18;
  const pw = W - left - 8;
  const ph = h - top - bottom;
  const s = plot(W, h, 'trial durations');
  attr(s, 'data-p50', p50);
  attr(s, 'data-p95', p95);
  attr(s, 'data-n', times.length);
  if (!times.length) {
    s.appendChild(svgText(4, 18, 'no durations recorded'));
    return s;
  }
  const max = Math.max(...times, p95 || 0) || 1;
  const nb = Math.max(1, Math.min(24, Math.ceil(Math.sqrt(times.length))));
  const width = max / nb;
  const bins: number[] = [];
  for (let i = 0; i < nb; i++) bins.push(0);
  for (const t of times) bins[Math.min(nb - 1, Math.floor(t / width))]++;
  const top1 = Math.max(...bins) || 1;
  s.appendChild(svg('line', { class: 'axis', x1: left, x2: left + pw, y1: top + ph, y2: top + ph }));
  bins.forEach((c, i) => {
    const bh = (c / top1) * ph;
    const g = svg('g', {
      class: 'bin',
      'data-lo': +(i * width).toFixed(4),
      'data-hi': +((i + 1) * width).toFixed(4),
      'data-count': c,
    });
    const r = svg('rect', {
      class: 'bar-time',
      x: left + (i * pw) / nb + 0.5,
      y: top + ph - bh,
      width: Math.max(0.5, pw / nb - 1),
      height: bh,
    });
    r.appendChild(svg('title', null, c + ' trial(s) of ' + secs(i * width) + '\u2013' + secs((i + 1) * width)));
    g.appendChild(r);
    s.appendChild(g);
  });
  s.appendChild(svgText(left - 4, top + ph, '0', { class: 'muted', 'text-anchor': 'end' }));
  s.appendChild(svgText(left - 4, top + 8, String(top1), { class: 'muted', 'text-anchor': 'end' }));
  s.appendChild(svgText(left, h - 6, '0s', { class: 'muted' }));
  s.appendChild(svgText(left + pw, h - 6, secs(max), { class: 'muted', 'text-anchor': 'end' }));
  const markers: Array<[string, number | null | undefined]> = [
    ['p50', p50],
    ['p95', p95],
  ];
  markers.forEach(([name, at], i) => {
    if (at === null || at === undefined) return;
    const x = left + (at / max) * pw;
    s.appendChild(svg('line', { class: 'marker ' + name, x1: x, x2: x, y1: top - 4, y2: top + ph }));
    s.appendChild(
      svgText(x + (i ? -3 : 3), top - 6, name + ' ' + secs(at), {
        class: 'marker-label',
        'data-marker': name,
        'data-value': at,
        'text-anchor': i ? 'end' : 'start',
      }),
    );
  });
  return s;
}

/** pass@k and pass^k over k = 1..K, from the report's unbiased estimates. */
export function curves(passAt: Record<string, number>, passHat: Record<string, number>): SVGElement {
  const ks = Object.keys(passAt)
    .map(Number)
    .sort((a, b) => a - b);
  const h = 170;
  const left = 36;
  const right = 10;
  const top = 10;
  const bottom = 34;
  const pw = W - left - right;
  const ph = h - top - bottom;
  const s = plot(W, h, 'pass@k and pass^k');
  const K = ks[ks.length - 1] || 1;
  const X = (k: number) => left + (K === 1 ? pw / 2 : ((k - 1) / (K - 1)) * pw);
  const Y = (v: number) => top + (1 - v) * ph;
  for (const v of [0, 0.5, 1]) {
    s.appendChild(svg('line', { class: 'axis', x1: left, x2: left + pw, y1: Y(v), y2: Y(v) }));
    s.appendChild(svgText(left - 4, Y(v) + 4, v * 100 + '%', { class: 'muted', 'text-anchor': 'end' }));
  }
  for (const k of ks)
    s.appendChild(svgText(X(k), top + ph + 14, 'k=' + k, { class: 'muted', 'text-anchor': 'middle' }));
  const series: Array<[string, Record<string, number>, string, string]> = [
    ['pass@k', passAt, 'line', 'dot'],
    ['pass^k', passHat, 'line2', 'dot2'],
  ];
  series.forEach(([name, values, lineCls, dotCls], ci) => {
    const pts = ks.filter((k) => typeof values[k] === 'number');
    s.appendChild(svg('polyline', { class: lineCls, points: pts.map((k) => X(k) + ',' + Y(values[k])).join(' ') }));
    for (const k of pts) {
      const dot = svg('circle', {
        class: dotCls + ' point',
        cx: X(k),
        cy: Y(values[k]),
        r: 3.5,
        'data-series': name,
        'data-k': k,
        'data-value': values[k],
      });
      dot.appendChild(svg('title', null, name.replace('k', String(k)) + ' = ' + pct(values[k])));
      s.appendChild(dot);
    }
    const lx = left + ci * 190;
    const ly = h - 6;
    s.appendChild(svg('circle', { class: dotCls, cx: lx + 4, cy: ly - 4, r: 4 }));
    s.appendChild(
      svgText(lx + 12, ly, name + (ci ? ' (every one of k passes)' : ' (any of k passes)'), { class: 'muted' }),
    );
  });
  return s;
}

export interface TrendPoint {
  label: string;
  rate: number | null;
  low: number | null;
  high: number | null;
  note: string;
}

/** A rate over a sequence of runs, with its 95% band and an optional gate threshold. */
export function trend(points: TrendPoint[], threshold: number | null): SVGElement {
  const h = 220;
  const left = 40;
  const right = 12;
  const top = 12;
  const bottom = 46;
  const pw = Math.max(W, 60 * points.length) - left - right;
  const ph = h - top - bottom;
  const s = plot(pw + left + right, h, 'pass rate across runs');
  const n = points.length;
  const X = (i: number) => left + (n === 1 ? pw / 2 : (i / (n - 1)) * pw);
  const Y = (v: number) => top + (1 - v) * ph;
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    s.appendChild(svg('line', { class: 'axis', x1: left, x2: left + pw, y1: Y(v), y2: Y(v) }));
    s.appendChild(svgText(left - 4, Y(v) + 4, v * 100 + '%', { class: 'muted', 'text-anchor': 'end' }));
  }
  // (Number(null) is 0, as the arithmetic on a missing high always made it)
  const banded = points.flatMap((p, i) => (given(p.low) ? [{ i, low: p.low, high: Number(p.high) }] : []));
  if (banded.length) {
    const up = banded.map((e) => X(e.i) + ',' + Y(e.high));
    const down = banded
      .slice()
      .reverse()
      .map((e) => X(e.i) + ',' + Y(e.low));
    s.appendChild(svg('polygon', { class: 'band', points: up.concat(down).join(' ') }));
  }
  if (threshold !== null && threshold !== undefined) {
    s.appendChild(
      svg('line', {
        class: 'gate-line',
        x1: left,
        x2: left + pw,
        y1: Y(threshold),
        y2: Y(threshold),
        'data-threshold': threshold,
      }),
    );
    s.appendChild(
      svgText(left + pw, Y(threshold) - 3, 'gate ' + pct(threshold), { class: 'muted', 'text-anchor': 'end' }),
    );
  }
  const rated = points.flatMap((p, i) => (given(p.rate) ? [{ i, rate: p.rate }] : []));
  s.appendChild(svg('polyline', { class: 'line', points: rated.map((e) => X(e.i) + ',' + Y(e.rate)).join(' ') }));
  points.forEach((p, i) => {
    const g = svg('g', {
      class: 'run-point',
      'data-label': p.label,
      'data-rate': p.rate,
      'data-low': p.low,
      'data-high': p.high,
    });
    if (given(p.rate)) {
      const c = svg('circle', { class: 'dot', cx: X(i), cy: Y(p.rate), r: 4 });
      c.appendChild(
        svg(
          'title',
          null,
          p.label + ': ' + pct(p.rate) + (given(p.low) ? ' (95% CI ' + pct(p.low) + '\u2013' + pct(p.high) + ')' : ''),
        ),
      );
      g.appendChild(c);
      g.appendChild(svgText(X(i), Y(p.rate) - 8, pct(p.rate), { 'text-anchor': 'middle', class: 'value' }));
    } else g.appendChild(svgText(X(i), top + ph - 4, 'no data', { 'text-anchor': 'middle', class: 'muted' }));
    const lab = svgText(X(i), top + ph + 16, clip(p.label, 16), { 'text-anchor': 'middle', class: 'muted' });
    lab.appendChild(svg('title', null, p.label));
    g.appendChild(lab);
    if (p.note)
      g.appendChild(svgText(X(i), top + ph + 30, clip(p.note, 18), { 'text-anchor': 'middle', class: 'muted' }));
    s.appendChild(g);
  });
  return s;
}
