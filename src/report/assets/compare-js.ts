// The comparison page's own part: run summaries with the paired difference, a pass-rate chart,
// the paged tasks x runs matrix with its filters, and the trial page of a clicked cell
// (deep link #run=<i>&trial=<task-id>&step=<n>; j/k move down the matrix in the same run).

export const COMPARE_APP_JS = String.raw`
  var data = JSON.parse(document.getElementById('benchrig-data').textContent);
  var MX = data.matrix, runs = MX.runs, rows = MX.rows, PAGE = data.page_size || 200;
  var byRun = data.trials.map(function (list) { var m = {}; list.forEach(function (t) { m[t.task_id] = t; }); return m; });
  var STATE = {
    passing: { sym: '\u2713', text: 'pass' }, failing: { sym: '\u2717', text: 'fail' },
    unanswered: { sym: '!', text: 'no answer' }, not_graded: { sym: '?', text: 'not graded' }, absent: { sym: '\u2013', text: 'absent' }
  };

  MX.warnings.forEach(function (w) { document.getElementById('warnings').appendChild(el('div', 'gate fail', 'warning: ' + w)); });

  function signedPts(x) { return x === null || x === undefined ? 'n/a' : (x >= 0 ? '+' : '') + (x * 100).toFixed(1) + ' pts'; }
  (function summary() {
    var t = el('table', 'runs-table');
    t.appendChild(el('thead', null, el('tr', null, ['run', 'pass rate (95% CI)', 'passed', 'cost', 'tokens in / out', 'time', 'gate', 'pass rate vs baseline, paired over tasks'].map(function (h, i) { return el('th', i >= 1 && i <= 5 ? 'num' : null, h); }))));
    var tb = el('tbody');
    runs.forEach(function (r, i) {
      var d = MX.diffs[i];
      var diff = i === 0 ? [el('b', null, 'baseline')] : d.n === 0 ? ['no task graded in both'] :
        [el('b', null, signedPts(d.diff)), d.ci95 ? ' (95% CI ' + signedPts(d.ci95[0]) + ' to ' + signedPts(d.ci95[1]) + ')' : ' (one task: no interval)', el('div', 'note', 'over ' + d.n + ' task(s) graded in both')];
      var tr = el('tr', null, [
        el('td', null, [el('b', null, r.label), el('div', 'note', r.dir), el('div', 'note', 'started ' + r.started_at + ' \u00b7 ' + r.status)]),
        el('td', 'num', [el('b', null, pct(r.pass_rate)), el('div', 'note', r.pass_rate_ci95 ? pct(r.pass_rate_ci95[0]) + '\u2013' + pct(r.pass_rate_ci95[1]) : 'no interval')]),
        el('td', 'num', r.n_passed + '/' + r.n_gradable), el('td', 'num', r.cost_usd === null ? 'n/a' : '$' + r.cost_usd.toFixed(4)),
        el('td', 'num', r.tokens.input + ' / ' + r.tokens.output), el('td', 'num', r.duration_s === null ? 'n/a' : secs(r.duration_s)),
        el('td', 'note', r.gate), el('td', 'diff-cell', diff)]);
      attr(tr, 'data-run', i); attr(tr, 'data-pass-rate', r.pass_rate);
      if (d) { attr(tr, 'data-diff', d.diff); attr(tr, 'data-diff-low', d.ci95 ? d.ci95[0] : null); attr(tr, 'data-diff-high', d.ci95 ? d.ci95[1] : null); attr(tr, 'data-diff-n', d.n); }
      tb.appendChild(tr);
    });
    t.appendChild(tb);
    document.getElementById('runs-summary').appendChild(t);
    var charts = document.getElementById('charts');
    charts.appendChild(chart('chart-runs', 'pass rate per run with its 95% interval', rateBars(runs.map(function (r, i) {
      return { label: r.label, id: i, rate: r.pass_rate, low: r.pass_rate_ci95 ? r.pass_rate_ci95[0] : null, high: r.pass_rate_ci95 ? r.pass_rate_ci95[1] : null, note: r.n_passed + '/' + r.n_gradable };
    }), 'pass rate per run')));
    var counts = { differing: 0, regressions: 0, fixed: 0 };
    rows.forEach(function (r) { if (r.differing) counts.differing++; if (r.regression) counts.regressions++; if (r.fixed) counts.fixed++; });
    var fb = document.querySelectorAll('#matrix-filters button');
    for (var i = 0; i < fb.length; i++) {
      var k = fb[i].getAttribute('data-filter');
      fb[i].textContent = fb[i].textContent + ' (' + (k === 'all' ? rows.length : counts[k]) + ')';
    }
    var legend = document.getElementById('legend');
    ['passing', 'failing', 'unanswered', 'not_graded', 'absent'].forEach(function (s) {
      append(legend, el('span', null, [el('span', 'sw c-' + s, STATE[s].sym + ' ' + STATE[s].text), ' ' + ({ passing: 'every gradable trial passed', failing: 'a gradable trial failed', unanswered: 'every trial AGENT_ERROR or TIMEOUT', not_graded: 'no gradable trial', absent: 'not in this run' })[s]]));
    });
    append(legend, el('span', null, 'cells show passed/gradable when a task ran more than once; click a cell to open its trial'));
  })();

  // ---- the matrix
  var filter = 'all', q = '';
  rows.forEach(function (r) { r._q = r.names.join(' ').toLowerCase(); });
  function cellText(c) {
    if (!c) return STATE.absent.sym + ' ' + STATE.absent.text;
    var s = STATE[c.state] || { sym: '?', text: c.state };
    return s.sym + ' ' + (c.trials > 1 ? c.passed + '/' + c.gradable : s.text);
  }
  var columns = [{ key: 'task', label: 'task', get: function (r) { return r.sample_id; }, render: function (r) {
    return [el('span', 'mono', r.sample_id), r.names.length > 1 ? el('div', 'note', 'also named ' + r.names.slice(1).join(', ')) : null,
      r.regression ? el('span', 'tag', 'regression') : null, r.fixed ? el('span', 'tag', 'fixed') : null];
  } }];
  runs.forEach(function (run, i) {
    columns.push({ key: 'run' + i, label: run.label, cls: 'cell', get: function (r) { var c = r.cells[i]; return c ? ({ passing: 0, failing: 1, unanswered: 2, not_graded: 3 })[c.state] : 4; },
      render: function (r, td) {
        var c = r.cells[i];
        td.className = 'cell c-' + (c ? c.state : 'absent');
        attr(td, 'data-run', i); attr(td, 'data-state', c ? c.state : 'absent');
        td.title = run.label + ': ' + (c ? Object.keys(c.statuses).map(function (s) { return s + ' ' + c.statuses[s]; }).join(', ') : 'absent');
        return cellText(c);
      } });
  });
  var matrix = new Table({
    id: 'matrix', cls: 'matrix', rows: function () { return rows; }, sort: 'task', pageSize: PAGE,
    rowId: function (r) { return r.input_hash + '|' + r.sample_id; },
    filter: function (r) {
      if (filter === 'differing' && !r.differing) return false;
      if (filter === 'regressions' && !r.regression) return false;
      if (filter === 'fixed' && !r.fixed) return false;
      return !q || r._q.indexOf(q) >= 0;
    },
    columns: columns,
    onClick: function (r, tr, ev) {
      var td = ev.target && ev.target.closest ? ev.target.closest('td.cell') : null;
      if (!td) return;
      var i = Number(td.getAttribute('data-run')), c = r.cells[i];
      if (c && c.task_ids.length) openTrial(i, pickTrial(c, i), null);
    }
  });
  function pickTrial(c, run) {
    // the first trial that did not pass is what a reader of a failing cell wants to see
    if (c.state !== 'passing') for (var k = 0; k < c.task_ids.length; k++) { var t = byRun[run][c.task_ids[k]]; if (t && t.status !== 'PASSED') return t.task_id; }
    return c.task_ids[0];
  }
  var fbs = document.querySelectorAll('#matrix-filters button');
  for (var b = 0; b < fbs.length; b++) fbs[b].addEventListener('click', function (ev) {
    filter = ev.currentTarget.getAttribute('data-filter');
    for (var j = 0; j < fbs.length; j++) fbs[j].classList.toggle('on', fbs[j] === ev.currentTarget);
    matrix.refresh(true);
  });
  document.getElementById('m-search').addEventListener('input', function (ev) { q = ev.target.value.trim().toLowerCase(); matrix.refresh(true); });

  // ---- the trial page of a cell
  var detail = document.getElementById('detail'), listParts = ['summary', 'matrix-section'];
  var open = null, view = null, listScroll = 0;
  function showList() {
    detail.hidden = true; open = null; view = null;
    listParts.forEach(function (id) { document.getElementById(id).hidden = false; });
    setHash({}); window.scrollTo(0, listScroll);
  }
  function seq(run) {
    var out = [];
    matrix.rows.forEach(function (r) { var c = r.cells[run]; if (c) c.task_ids.forEach(function (id) { out.push(id); }); });
    return out;
  }
  function openTrial(run, id, step) {
    var t = byRun[run] && byRun[run][id];
    if (!t) return;
    if (open === null) listScroll = window.scrollY || 0;
    open = { run: run, id: id };
    listParts.forEach(function (pid) { document.getElementById(pid).hidden = true; });
    var s = seq(run), pos = s.indexOf(id);
    view = renderTrial(detail, t, { pos: pos, total: s.length, label: 'of run ' + runs[run].label + ' in the matrix filter', prev: function () { move(-1); }, next: function () { move(1); }, close: showList });
    var tag = el('div', 'trial-facts', 'run ' + runs[run].label + ' \u00b7 ' + runs[run].dir);
    detail.firstChild.insertBefore(tag, detail.firstChild.children[1]);
    detail.hidden = false; window.scrollTo(0, 0);
    if (step !== null && step !== undefined && !isNaN(step)) setHash({ run: run, trial: id, step: selectStep(view, stepIndexOf(view, step)) });
    else { view.current = -1; setHash({ run: run, trial: id }); }
  }
  function move(d) {
    if (!open) return;
    var s = seq(open.run), pos = s.indexOf(open.id), next = pos < 0 ? 0 : pos + d;
    if (next >= 0 && next < s.length) openTrial(open.run, s[next], null);
  }
  function moveStep(d) {
    if (!view || !view.nodes.length) return;
    var i = view.current === undefined || view.current < 0 ? (d > 0 ? 0 : view.nodes.length - 1) : view.current + d;
    setHash({ run: open.run, trial: open.id, step: selectStep(view, i) });
  }
  document.addEventListener('keydown', function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || typingInField(ev)) return;
    if (ev.key === 'j') move(1);
    else if (ev.key === 'k') move(-1);
    else if (ev.key === ']') moveStep(1);
    else if (ev.key === '[') moveStep(-1);
    else if (ev.key === 'Escape' && open) showList();
    else return;
    ev.preventDefault();
  });
  matrix.refresh(true);
  function fromHash() {
    var h = parseHash(), run = Number(h.run || 0);
    if (h.trial !== undefined && byRun[run] && byRun[run][h.trial]) openTrial(run, h.trial, h.step === undefined ? null : Number(h.step));
  }
  window.addEventListener('hashchange', fromHash);
  fromHash();
  document.body.setAttribute('data-ready', '1');
`;
