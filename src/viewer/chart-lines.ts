// The line charts: pass@k and pass^k over k, and the pass rate across runs (history). Drawn at their
// box's width in pixels (charts.ts mountChart); labels along the x axis are thinned, or turned upright
// when there are too many to lie flat, and value labels are placed where they are clear (svg.ts Placer).
import { pct } from './dom.ts';
import { fitText, FONT_PX, LINE, Placer, plot, svg, svgText, textBox, textWidth, type Box, type Draw } from './svg.ts';

const given = (x: number | null | undefined): x is number => x !== null && x !== undefined;

/** The y axis of a rate: a line and a label at each of `ticks`; the labels' boxes reserved. */
function rateAxis(
  s: SVGElement,
  placer: Placer,
  ticks: number[],
  frame: { left: number; right: number },
  Y: (v: number) => number,
) {
  for (const v of ticks) {
    s.appendChild(svg('line', { class: 'axis', x1: frame.left, x2: frame.right, y1: Y(v), y2: Y(v) }));
    const text = v * 100 + '%';
    placer.reserve(textBox(frame.left - 4, Y(v) + 4, textWidth(text), 'end'));
    s.appendChild(svgText(frame.left - 4, Y(v) + 4, text, { class: 'muted', 'text-anchor': 'end' }));
  }
}

/** pass@k and pass^k over k = 1..K, from the report's unbiased estimates. */
export function curves(passAt: Record<string, number>, passHat: Record<string, number>): Draw {
  const ks = Object.keys(passAt)
    .map(Number)
    .sort((a, b) => a - b);
  const names = ['pass@k (any of k passes)', 'pass^k (every one of k passes)'];
  return (width) => {
    const left = textWidth('100%') + 8;
    const right = 10 + textWidth('k=' + (ks[ks.length - 1] || 1)) / 2;
    const top = 10;
    const ph = 126;
    const pw = width - left - right;
    // the legend flows: both items on one row when they fit, else one under the other
    const oneRow = left + 24 + textWidth(names[0]) + 24 + textWidth(names[1]) <= width;
    const h = top + ph + LINE + 16 + (oneRow ? 1 : 2) * (LINE + 4);
    const s = plot(width, h, 'pass@k and pass^k');
    const placer = new Placer(width, h);
    const K = ks[ks.length - 1] || 1;
    const X = (k: number) => left + (K === 1 ? pw / 2 : ((k - 1) / (K - 1)) * pw);
    const Y = (v: number) => top + (1 - v) * ph;
    rateAxis(s, placer, [0, 0.5, 1], { left, right: left + pw }, Y);
    // first and last k, then every step-th between, each only where it is clear of the others
    const order = ks.length > 1 ? [ks[0], ks[ks.length - 1], ...ks.slice(1, -1)] : ks;
    for (const k of order) {
      const text = 'k=' + k;
      const w = textWidth(text) + 6; // a little air between neighbours
      if (placer.place([textBox(X(k) - 3, top + ph + 20, w, 'middle')]))
        s.appendChild(svgText(X(k), top + ph + 20, text, { class: 'muted', 'text-anchor': 'middle' }));
    }
    const series: Array<[string, Record<string, number>, string, string]> = [
      ['pass@k', passAt, 'line', 'dot'],
      ['pass^k', passHat, 'line2', 'dot2'],
    ];
    let lx = left;
    let ly = top + ph + LINE + 16 + LINE;
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
      if (ci && !oneRow) {
        lx = left;
        ly += LINE + 4;
      }
      s.appendChild(svg('circle', { class: dotCls, cx: lx + 4, cy: ly - 4, r: 4 }));
      s.appendChild(svgText(lx + 12, ly, fitText(names[ci], width - lx - 14), { class: 'muted' }));
      lx += 24 + textWidth(names[ci]);
    });
    return s;
  };
}

interface TrendPoint {
  label: string;
  rate: number | null;
  low: number | null;
  high: number | null;
  note: string;
}

/** The longest a run's name is drawn under the axis (the whole name is its tooltip). */
const MAX_RUN_LABEL = 160;

/** The pass rate over a sequence of runs, with its 95% band, the gate and the changes of version. */
export function trend(points: TrendPoint[], threshold: number | null): Draw {
  return (width) => {
    const n = points.length;
    const labels = points.map((p) => fitText(p.label, MAX_RUN_LABEL));
    const widths = labels.map((t) => textWidth(t));
    const left = textWidth('100%') + 8;
    const right = 12;
    const top = LINE + 8; // room for a value label above a run at 100%
    const ph = 160;
    const pw = width - left - right;
    const X = (i: number) => left + (n === 1 ? pw / 2 : (i / (n - 1)) * pw);
    const Y = (v: number) => top + (1 - v) * ph;
    // flat names when every one fits beside its neighbours, else upright ones (thinned when even those crowd)
    const gap = n > 1 ? pw / (n - 1) : pw;
    const trial = new Placer(width, Infinity);
    const flat = widths.every((w, i) => flatSpot(trial, X(i), FONT_PX, w + 8) !== null);
    const axisH = flat ? LINE + 14 : Math.max(0, ...widths) + 16;
    const h = top + ph + axisH;
    const s = plot(width, h, 'pass rate across runs');
    const placer = new Placer(width, h);
    rateAxis(s, placer, [0, 0.25, 0.5, 0.75, 1], { left, right: left + pw }, Y);
    band(s, points, X, Y);
    versionMarks(s, points, X, { top, bottom: top + ph });
    if (given(threshold)) gateLine(s, placer, threshold, { left, right: left + pw }, Y);
    const rated = points.flatMap((p, i) => (given(p.rate) ? [{ i, rate: p.rate }] : []));
    s.appendChild(svg('polyline', { class: 'line', points: rated.map((e) => X(e.i) + ',' + Y(e.rate)).join(' ') }));
    const groups = points.map((p, i) => runPoint(p, X(i), Y, placer));
    const step = flat ? 1 : Math.max(1, Math.ceil((LINE + 2) / gap));
    groups.forEach((g, i) => {
      if (i % step === 0 || i === n - 1)
        runLabel(g, points[i].label, labels[i], widths[i], X(i), top + ph, flat, placer);
    });
    groups.forEach((g, i) => valueLabel(g, points[i], X(i), Y, top + ph, placer));
    for (const g of groups) s.appendChild(g);
    return s;
  };
}

function band(s: SVGElement, points: TrendPoint[], X: (i: number) => number, Y: (v: number) => number): void {
  // (Number(null) is 0, as the arithmetic on a missing high always made it)
  const banded = points.flatMap((p, i) => (given(p.low) ? [{ i, low: p.low, high: Number(p.high) }] : []));
  if (!banded.length) return;
  const up = banded.map((e) => X(e.i) + ',' + Y(e.high));
  const down = banded
    .slice()
    .reverse()
    .map((e) => X(e.i) + ',' + Y(e.low));
  s.appendChild(svg('polygon', { class: 'band', points: up.concat(down).join(' ') }));
}

/** A dashed line at each run whose benchmark version differs from the run before (its note a tooltip). */
function versionMarks(
  s: SVGElement,
  points: TrendPoint[],
  X: (i: number) => number,
  frame: { top: number; bottom: number },
) {
  points.forEach((p, i) => {
    if (!p.note) return;
    const line = svg('line', {
      class: 'version-mark',
      x1: X(i),
      x2: X(i),
      y1: frame.top,
      y2: frame.bottom,
      'data-note': p.note,
    });
    line.appendChild(svg('title', null, p.note));
    s.appendChild(line);
  });
}

function gateLine(
  s: SVGElement,
  placer: Placer,
  threshold: number,
  frame: { left: number; right: number },
  Y: (v: number) => number,
) {
  const y = Y(threshold);
  s.appendChild(
    svg('line', { class: 'gate-line', x1: frame.left, x2: frame.right, y1: y, y2: y, 'data-threshold': threshold }),
  );
  const text = 'gate ' + pct(threshold);
  const w = textWidth(text);
  const spots: Array<[number, number]> = [
    [frame.right, y - 3],
    [frame.right, y + FONT_PX + 1],
  ];
  const boxes = spots.map(([x, yy]) => textBox(x, yy, w, 'end'));
  const got = placer.place(boxes);
  if (!got) return;
  const [x, yy] = spots[boxes.indexOf(got)];
  s.appendChild(svgText(x, yy, text, { class: 'muted gate-label', 'text-anchor': 'end' }));
}

function runPoint(p: TrendPoint, x: number, Y: (v: number) => number, placer: Placer): SVGElement {
  const g = svg('g', {
    class: 'run-point',
    'data-label': p.label,
    'data-rate': p.rate,
    'data-low': p.low,
    'data-high': p.high,
  });
  if (given(p.rate)) {
    const c = svg('circle', { class: 'dot', cx: x, cy: Y(p.rate), r: 4 });
    const ci = given(p.low) ? ' (95% CI ' + pct(p.low) + '\u2013' + pct(p.high) + ')' : '';
    c.appendChild(svg('title', null, p.label + ': ' + pct(p.rate) + ci));
    g.appendChild(c);
    placer.reserve({ x: x - 4, y: Y(p.rate) - 4, w: 8, h: 8 });
  }
  return g;
}

/** A run's name under the axis: flat and centred (moved in from an edge), or upright, reading upwards. */
function runLabel(
  g: SVGElement,
  full: string,
  text: string,
  w: number,
  x: number,
  axisY: number,
  flat: boolean,
  placer: Placer,
) {
  const y = axisY + 8 + FONT_PX;
  if (flat) {
    const anchor = flatSpot(placer, x, y, w);
    if (anchor) g.appendChild(titled(svgText(x, y, text, { class: 'muted run-label', 'text-anchor': anchor }), full));
    return;
  }
  // turned a quarter upwards about its end: it hangs from the axis, one line of text wide
  const box: Box = { x: x - LINE / 2, y: axisY + 8, w: LINE, h: w };
  if (!placer.place([box])) return;
  const ax = x + FONT_PX / 2 - 2;
  const ay = axisY + 8;
  g.appendChild(
    titled(
      svgText(ax, ay, text, {
        class: 'muted run-label',
        'text-anchor': 'end',
        transform: 'rotate(-90 ' + ax + ' ' + ay + ')',
      }),
      full,
    ),
  );
}

/** Centred under its run, or from it to the right or the left at an edge: the anchor taken, or null. */
function flatSpot(placer: Placer, x: number, y: number, w: number): 'middle' | 'start' | 'end' | null {
  const anchors = ['middle', 'start', 'end'] as const;
  const boxes = anchors.map((a) => textBox(x, y, w, a));
  const got = placer.place(boxes);
  return got ? anchors[boxes.indexOf(got)] : null;
}

const titled = (t: SVGElement, full: string) => {
  t.appendChild(svg('title', null, full));
  return t;
};

/** A run's rate above its dot, else below, else beside it; left out (the tooltip and table have it) when crowded. */
function valueLabel(g: SVGElement, p: TrendPoint, x: number, Y: (v: number) => number, axisY: number, placer: Placer) {
  if (!given(p.rate)) {
    const text = 'no data';
    const spots = [textBox(x, axisY - 4, textWidth(text), 'middle')];
    if (placer.place(spots)) g.appendChild(svgText(x, axisY - 4, text, { 'text-anchor': 'middle', class: 'muted' }));
    return;
  }
  const text = pct(p.rate);
  const w = textWidth(text);
  const y = Y(p.rate);
  const spots: Array<[number, number, 'middle' | 'start' | 'end']> = [
    [x, y - 8, 'middle'],
    [x, y + FONT_PX + 6, 'middle'],
    [x + 7, y + FONT_PX / 2 - 1, 'start'],
    [x - 7, y + FONT_PX / 2 - 1, 'end'],
  ];
  const boxes = spots.map(([sx, sy, a]) => textBox(sx, sy, w, a));
  const got = placer.place(boxes);
  if (!got) return;
  const [sx, sy, a] = spots[boxes.indexOf(got)];
  g.appendChild(svgText(sx, sy, text, { 'text-anchor': a, class: 'value' }));
}
