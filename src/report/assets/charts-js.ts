// Inline SVG charts drawn by the page's own script: no library, no network. Every label is a
// <text> node (so a hostile check name stays text) and every number a data-* attribute, so a test
// or a reader's tool can check the picture against evaluation_report.json.

export const CHARTS_JS = String.raw`
  var W = 420;

  // Horizontal bars of rates in [0, 1], each with an optional 95% interval whisker.
  // rows: [{ label, rate, low, high, note, id }]
  function rateBars(rows, ariaLabel) {
    var rowH = 24, left = 150, right = 110, h = Math.max(1, rows.length) * rowH + 22, bw = W - left - right;
    var s = plot(W, h, ariaLabel);
    [0, 0.5, 1].forEach(function (t) {
      var x = left + t * bw;
      s.appendChild(svg('line', { 'class': 'axis', x1: x, x2: x, y1: 2, y2: h - 16 }));
      s.appendChild(svgText(x, h - 4, (t * 100) + '%', { 'class': 'muted', 'text-anchor': 'middle' }));
    });
    rows.forEach(function (r, i) {
      var y = 4 + i * rowH, g = svg('g', { 'class': 'rate-row', 'data-label': r.label, 'data-rate': r.rate, 'data-low': r.low, 'data-high': r.high });
      if (r.id !== undefined) g.setAttribute('data-id', String(r.id));
      var label = svgText(left - 6, y + 13, clip(r.label, 24), { 'text-anchor': 'end' });
      label.appendChild(svg('title', null, r.label));
      g.appendChild(label);
      g.appendChild(svg('rect', { 'class': 'bar-track', x: left, y: y + 3, width: bw, height: 14, rx: 2 }));
      if (r.rate !== null && r.rate !== undefined) g.appendChild(svg('rect', { 'class': r.rate >= 0.5 ? 'bar-pass' : 'bar-fail', x: left, y: y + 3, width: Math.max(1, r.rate * bw), height: 14, rx: 2 }));
      if (r.low !== null && r.low !== undefined && r.high !== null && r.high !== undefined) {
        var x1 = left + r.low * bw, x2 = left + r.high * bw, cy = y + 10;
        g.appendChild(svg('line', { 'class': 'whisker ci', x1: x1, x2: x2, y1: cy, y2: cy }));
        g.appendChild(svg('line', { 'class': 'whisker', x1: x1, x2: x1, y1: cy - 5, y2: cy + 5 }));
        g.appendChild(svg('line', { 'class': 'whisker', x1: x2, x2: x2, y1: cy - 5, y2: cy + 5 }));
      }
      g.appendChild(svgText(left + bw + 6, y + 14, (r.rate === null || r.rate === undefined ? 'n/a' : pct(r.rate)) + (r.note ? '  ' + r.note : ''), { 'class': 'value' }));
      s.appendChild(g);
    });
    return s;
  }

  // One stacked bar of trial statuses with a legend that names each status and its count.
  function statusBar(counts) {
    var keys = STATUS_ORDER.filter(function (k) { return counts[k] > 0; });
    Object.keys(counts).forEach(function (k) { if (keys.indexOf(k) < 0 && counts[k] > 0) keys.push(k); });
    var total = keys.reduce(function (a, k) { return a + counts[k]; }, 0);
    var legendRows = Math.ceil(keys.length / 2), h = 40 + legendRows * 18;
    var s = plot(W, h, 'trial statuses'), x = 0, bw = W - 2;
    keys.forEach(function (k) {
      var w = total ? counts[k] / total * bw : 0;
      var g = svg('g', { 'class': 'status-seg', 'data-status': k, 'data-count': counts[k] });
      var r = svg('rect', { 'class': 'st-' + k.replace(/[^A-Z_]/g, ''), x: 1 + x, y: 4, width: Math.max(0, w - 1), height: 22 });
      r.appendChild(svg('title', null, k + ': ' + counts[k]));
      g.appendChild(r);
      if (w > 34) g.appendChild(svgText(1 + x + w / 2, 19, String(counts[k]), { 'text-anchor': 'middle', 'class': 'seg-label' }));
      s.appendChild(g);
      x += w;
    });
    keys.forEach(function (k, i) {
      var lx = (i % 2) * (W / 2) + 2, ly = 36 + Math.floor(i / 2) * 18;
      var g = svg('g', { 'class': 'legend-item', 'data-status': k, 'data-count': counts[k] });
      g.appendChild(svg('rect', { 'class': 'st-' + k.replace(/[^A-Z_]/g, ''), x: lx, y: ly, width: 10, height: 10 }));
      g.appendChild(svgText(lx + 15, ly + 9, k + '  ' + counts[k] + '  (' + (total ? (counts[k] / total * 100).toFixed(1) : '0') + '%)'));
      s.appendChild(g);
    });
    if (!keys.length) s.appendChild(svgText(4, 18, 'no trials'));
    return s;
  }

  // A histogram of trial durations with the report's p50 and p95 marked.
  function histogram(times, p50, p95) {
    var h = 150, left = 30, bottom = 22, top = 18, pw = W - left - 8, ph = h - top - bottom;
    var s = plot(W, h, 'trial durations');
    attr(s, 'data-p50', p50); attr(s, 'data-p95', p95); attr(s, 'data-n', times.length);
    if (!times.length) { s.appendChild(svgText(4, 18, 'no durations recorded')); return s; }
    var max = Math.max.apply(null, times.concat([p95 || 0])) || 1;
    var nb = Math.max(1, Math.min(24, Math.ceil(Math.sqrt(times.length)))), width = max / nb;
    var bins = []; for (var i = 0; i < nb; i++) bins.push(0);
    times.forEach(function (t) { bins[Math.min(nb - 1, Math.floor(t / width))]++; });
    var top1 = Math.max.apply(null, bins) || 1;
    s.appendChild(svg('line', { 'class': 'axis', x1: left, x2: left + pw, y1: top + ph, y2: top + ph }));
    bins.forEach(function (c, i) {
      var bh = c / top1 * ph, g = svg('g', { 'class': 'bin', 'data-lo': +(i * width).toFixed(4), 'data-hi': +((i + 1) * width).toFixed(4), 'data-count': c });
      var r = svg('rect', { 'class': 'bar-time', x: left + i * pw / nb + 0.5, y: top + ph - bh, width: Math.max(0.5, pw / nb - 1), height: bh });
      r.appendChild(svg('title', null, c + ' trial(s) of ' + secs(i * width) + '\u2013' + secs((i + 1) * width)));
      g.appendChild(r);
      s.appendChild(g);
    });
    s.appendChild(svgText(left - 4, top + ph, '0', { 'class': 'muted', 'text-anchor': 'end' }));
    s.appendChild(svgText(left - 4, top + 8, String(top1), { 'class': 'muted', 'text-anchor': 'end' }));
    s.appendChild(svgText(left, h - 6, '0s', { 'class': 'muted' }));
    s.appendChild(svgText(left + pw, h - 6, secs(max), { 'class': 'muted', 'text-anchor': 'end' }));
    [['p50', p50], ['p95', p95]].forEach(function (m, i) {
      if (m[1] === null || m[1] === undefined) return;
      var x = left + m[1] / max * pw;
      s.appendChild(svg('line', { 'class': 'marker ' + m[0], x1: x, x2: x, y1: top - 4, y2: top + ph }));
      s.appendChild(svgText(x + (i ? -3 : 3), top - 6 + (i ? 0 : 0), m[0] + ' ' + secs(m[1]), { 'class': 'marker-label', 'data-marker': m[0], 'data-value': m[1], 'text-anchor': i ? 'end' : 'start' }));
    });
    return s;
  }

  // pass@k and pass^k over k = 1..K, from the report's unbiased estimates.
  function curves(passAt, passHat) {
    var ks = Object.keys(passAt).map(Number).sort(function (a, b) { return a - b; });
    var h = 170, left = 36, right = 10, top = 10, bottom = 34, pw = W - left - right, ph = h - top - bottom;
    var s = plot(W, h, 'pass@k and pass^k');
    var K = ks[ks.length - 1] || 1;
    var X = function (k) { return left + (K === 1 ? pw / 2 : (k - 1) / (K - 1) * pw); }, Y = function (v) { return top + (1 - v) * ph; };
    [0, 0.5, 1].forEach(function (v) {
      s.appendChild(svg('line', { 'class': 'axis', x1: left, x2: left + pw, y1: Y(v), y2: Y(v) }));
      s.appendChild(svgText(left - 4, Y(v) + 4, (v * 100) + '%', { 'class': 'muted', 'text-anchor': 'end' }));
    });
    ks.forEach(function (k) { s.appendChild(svgText(X(k), top + ph + 14, 'k=' + k, { 'class': 'muted', 'text-anchor': 'middle' })); });
    [['pass@k', passAt, 'line', 'dot'], ['pass^k', passHat, 'line2', 'dot2']].forEach(function (c, ci) {
      var pts = ks.filter(function (k) { return typeof c[1][k] === 'number'; });
      s.appendChild(svg('polyline', { 'class': c[2], points: pts.map(function (k) { return X(k) + ',' + Y(c[1][k]); }).join(' ') }));
      pts.forEach(function (k) {
        var dot = svg('circle', { 'class': c[3] + ' point', cx: X(k), cy: Y(c[1][k]), r: 3.5, 'data-series': c[0], 'data-k': k, 'data-value': c[1][k] });
        dot.appendChild(svg('title', null, c[0].replace('k', String(k)) + ' = ' + pct(c[1][k])));
        s.appendChild(dot);
      });
      var lx = left + ci * 190, ly = h - 6;
      s.appendChild(svg(ci ? 'circle' : 'circle', { 'class': c[3], cx: lx + 4, cy: ly - 4, r: 4 }));
      s.appendChild(svgText(lx + 12, ly, c[0] + (ci ? ' (every one of k passes)' : ' (any of k passes)'), { 'class': 'muted' }));
    });
    return s;
  }

  // A rate over a sequence of runs, with its 95% band and an optional gate threshold.
  // points: [{ label, rate, low, high, note }]
  function trend(points, threshold) {
    var h = 220, left = 40, right = 12, top = 12, bottom = 46, pw = Math.max(W, 60 * points.length) - left - right, ph = h - top - bottom;
    var s = plot(pw + left + right, h, 'pass rate across runs');
    var n = points.length, X = function (i) { return left + (n === 1 ? pw / 2 : i / (n - 1) * pw); }, Y = function (v) { return top + (1 - v) * ph; };
    [0, 0.25, 0.5, 0.75, 1].forEach(function (v) {
      s.appendChild(svg('line', { 'class': 'axis', x1: left, x2: left + pw, y1: Y(v), y2: Y(v) }));
      s.appendChild(svgText(left - 4, Y(v) + 4, (v * 100) + '%', { 'class': 'muted', 'text-anchor': 'end' }));
    });
    var banded = points.map(function (p, i) { return { p: p, i: i }; }).filter(function (e) { return e.p.low !== null && e.p.low !== undefined; });
    if (banded.length) {
      var up = banded.map(function (e) { return X(e.i) + ',' + Y(e.p.high); }), down = banded.slice().reverse().map(function (e) { return X(e.i) + ',' + Y(e.p.low); });
      s.appendChild(svg('polygon', { 'class': 'band', points: up.concat(down).join(' ') }));
    }
    if (threshold !== null && threshold !== undefined) {
      s.appendChild(svg('line', { 'class': 'gate-line', x1: left, x2: left + pw, y1: Y(threshold), y2: Y(threshold), 'data-threshold': threshold }));
      s.appendChild(svgText(left + pw, Y(threshold) - 3, 'gate ' + pct(threshold), { 'class': 'muted', 'text-anchor': 'end' }));
    }
    var rated = points.map(function (p, i) { return { p: p, i: i }; }).filter(function (e) { return e.p.rate !== null && e.p.rate !== undefined; });
    s.appendChild(svg('polyline', { 'class': 'line', points: rated.map(function (e) { return X(e.i) + ',' + Y(e.p.rate); }).join(' ') }));
    points.forEach(function (p, i) {
      var g = svg('g', { 'class': 'run-point', 'data-label': p.label, 'data-rate': p.rate, 'data-low': p.low, 'data-high': p.high });
      if (p.rate !== null && p.rate !== undefined) {
        var c = svg('circle', { 'class': 'dot', cx: X(i), cy: Y(p.rate), r: 4 });
        c.appendChild(svg('title', null, p.label + ': ' + pct(p.rate) + (p.low !== null && p.low !== undefined ? ' (95% CI ' + pct(p.low) + '\u2013' + pct(p.high) + ')' : '')));
        g.appendChild(c);
        g.appendChild(svgText(X(i), Y(p.rate) - 8, pct(p.rate), { 'text-anchor': 'middle', 'class': 'value' }));
      } else g.appendChild(svgText(X(i), top + ph - 4, 'no data', { 'text-anchor': 'middle', 'class': 'muted' }));
      var lab = svgText(X(i), top + ph + 16, clip(p.label, 16), { 'text-anchor': 'middle', 'class': 'muted' });
      lab.appendChild(svg('title', null, p.label));
      g.appendChild(lab);
      if (p.note) g.appendChild(svgText(X(i), top + ph + 30, clip(p.note, 18), { 'text-anchor': 'middle', 'class': 'muted' }));
      s.appendChild(g);
    });
    return s;
  }
`;
