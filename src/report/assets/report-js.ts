// report.html's own part: the charts of the run, the trial and task tables with their filters,
// and the trial page with keyboard stepping and deep links (#trial=<task-id>&step=<n>).

export const REPORT_APP_JS = String.raw`
  var data = JSON.parse(document.getElementById('benchrig-data').textContent);
  var trials = data.trials, R = data.report, M = R.metrics || {};
  var PAGE = data.page_size || 200;

  // ---- pictures of the run
  (function drawCharts() {
    var box = document.getElementById('charts');
    if (!box) return;
    var ci = M.pass_rate_ci95;
    box.appendChild(chart('chart-pass-rate', 'pass rate with its 95% interval', rateBars([{ label: 'pass rate', rate: M.pass_rate, low: ci ? ci[0] : null, high: ci ? ci[1] : null, note: M.n_passed + '/' + M.n_gradable }], 'pass rate'),
      ci ? 'Wilson 95% interval ' + pct(ci[0]) + '\u2013' + pct(ci[1]) + ' over ' + M.n_gradable + ' gradable trial(s)' : 'nothing gradable'));
    box.appendChild(chart('chart-status', 'trial statuses', statusBar(M.status_counts || {})));
    if ((R.checks || []).length) {
      box.appendChild(chart('chart-checks', 'pass rate per check', rateBars(R.checks.map(function (c) {
        var passed = c.pass_rate === null ? 0 : Math.round(c.pass_rate * c.n_gradable);
        return { label: c.name, rate: c.pass_rate, note: passed + '/' + c.n_gradable };
      }), 'pass rate per check')));
    }
    var times = [];
    trials.forEach(function (t) { if (typeof t.execution_time_s === 'number') times.push(t.execution_time_s); });
    var ts = M.execution_time_s || {};
    box.appendChild(chart('chart-durations', 'trial durations', histogram(times, ts.p50, ts.p95), 'p50 ' + secs(ts.p50) + ' \u00b7 p95 ' + secs(ts.p95) + ' \u00b7 max ' + secs(ts.max)));
    if (R.trials > 1 && M.pass_at && Object.keys(M.pass_at).length) {
      box.appendChild(chart('chart-pass-k', 'pass@k and pass^k over k (' + R.trials + ' trials per task)', curves(M.pass_at, M.pass_hat || {})));
    }
  })();

  // ---- filters
  var f = { status: '', check: '', verdict: 'failed', q: '', sample: null };
  var statusSel = document.getElementById('f-status'), checkSel = document.getElementById('f-check');
  var verdictSel = document.getElementById('f-verdict'), search = document.getElementById('f-search');
  var counts = {};
  trials.forEach(function (t) { counts[t.status] = (counts[t.status] || 0) + 1; });
  statusSel.appendChild(option('', 'any status (' + trials.length + ')'));
  statusSel.appendChild(option('FAILING', 'failing: FAILED, TIMEOUT, AGENT_ERROR'));
  Object.keys(counts).sort().forEach(function (s) { statusSel.appendChild(option(s, s + ' (' + counts[s] + ')')); });
  checkSel.appendChild(option('', 'any check'));
  (R.checks || []).forEach(function (c) { checkSel.appendChild(option(c.name, c.name + ' (' + c.type + ')')); });
  function checkOf(t, name) { for (var i = 0; i < t.checks.length; i++) if (t.checks[i].name === name) return t.checks[i]; return null; }
  // lower-cased search text, made once per trial (10,000 trials filter on every keystroke)
  trials.forEach(function (t) { t._q = (t.task_id + ' ' + t.sample_id + ' ' + t.reason).toLowerCase(); });
  function trialFilter(t) {
    if (f.sample !== null && t.sample_id !== f.sample) return false;
    if (f.status === 'FAILING' ? !FAILING[t.status] : f.status && t.status !== f.status) return false;
    if (f.check) {
      var c = checkOf(t, f.check);
      if (!c) return false;
      var want = f.verdict === 'passed' ? true : f.verdict === 'failed' ? false : f.verdict === 'ungradable' ? null : undefined;
      if (want !== undefined && c.passed !== want) return false;
    }
    if (f.q && t._q.indexOf(f.q.toLowerCase()) < 0) return false;
    return true;
  }

  var trialTable = new Table({
    id: 'trials', rows: function () { return trials; }, filter: trialFilter, sort: 'task', pageSize: PAGE,
    rowId: function (t) { return t.task_id; },
    columns: [
      { key: 'task', label: 'task', get: function (t) { return t.task_id; } },
      { key: 'sample', label: 'sample', get: function (t) { return t.sample_id; } },
      { key: 'trial', label: 'trial', num: true, get: function (t) { return t.trial; } },
      { key: 'status', label: 'status', get: function (t) { return t.status; }, render: function (t) { return badge(t.status); } },
      { key: 'score', label: 'score', num: true, get: function (t) { return t.score; }, render: function (t) { return fmt(t.score, 2); } },
      { key: 'time', label: 'time (s)', num: true, get: function (t) { return t.execution_time_s; }, render: function (t) { return fmt(t.execution_time_s, 1); } },
      { key: 'reason', label: 'reason', cls: 'reason', get: function (t) { return t.reason; } }
    ],
    onClick: function (t) { openTrial(t.task_id, null); }
  });

  var taskTable = new Table({
    id: 'tasks', rows: function () { return R.tasks || []; }, sort: 'sample', pageSize: PAGE,
    filter: function (t) { return !document.getElementById('f-flaky').checked || t.flaky; },
    columns: [
      { key: 'sample', label: 'sample', get: function (t) { return t.sample_id; } },
      { key: 'passed', label: 'passed', num: true, get: function (t) { return t.passed; } },
      { key: 'gradable', label: 'gradable', num: true, get: function (t) { return t.gradable; } },
      { key: 'trials', label: 'trials', num: true, get: function (t) { return t.trials; } },
      { key: 'statuses', label: 'statuses', get: function (t) { return Object.keys(t.statuses).map(function (s) { return s + ' ' + t.statuses[s]; }).join(', '); } },
      { key: 'flaky', label: 'flaky', get: function (t) { return t.flaky ? 'flaky' : ''; } }
    ],
    onClick: function (t) {
      f.sample = t.sample_id;
      document.getElementById('f-sample').hidden = false;
      document.getElementById('f-sample-name').textContent = t.sample_id;
      trialTable.refresh(true);
      document.getElementById('trials-section').scrollIntoView();
    }
  });

  function onFilter() { f.status = statusSel.value; f.check = checkSel.value; f.verdict = verdictSel.value; f.q = search.value.trim(); trialTable.refresh(true); }
  statusSel.addEventListener('change', onFilter); checkSel.addEventListener('change', onFilter);
  verdictSel.addEventListener('change', onFilter); search.addEventListener('input', onFilter);
  document.getElementById('f-flaky').addEventListener('change', function () { taskTable.refresh(true); });
  document.getElementById('f-sample-clear').addEventListener('click', function () {
    f.sample = null; document.getElementById('f-sample').hidden = true; trialTable.refresh(true);
  });

  // ---- the trial page
  var byId = {};
  trials.forEach(function (t) { byId[t.task_id] = t; });
  var detail = document.getElementById('detail'), listParts = ['summary', 'trials-section', 'tasks-section'];
  var open = null, view = null, listScroll = 0;

  function showList() {
    detail.hidden = true; open = null; view = null;
    listParts.forEach(function (id) { document.getElementById(id).hidden = false; });
    setHash({});
    window.scrollTo(0, listScroll);
  }
  function openTrial(id, step) {
    var t = byId[id];
    if (!t) return;
    if (open === null) listScroll = window.scrollY || 0;
    open = id;
    listParts.forEach(function (pid) { document.getElementById(pid).hidden = true; });
    var rows = trialTable.rows, pos = rows.indexOf(t);
    trialTable.showRow(t);
    var sel = document.querySelectorAll('tr.selected');
    for (var i = 0; i < sel.length; i++) sel[i].classList.remove('selected');
    var tr = document.querySelectorAll('#trials tbody tr');
    for (i = 0; i < tr.length; i++) if (tr[i].getAttribute('data-id') === id) tr[i].classList.add('selected');
    view = renderTrial(detail, t, { pos: pos, total: rows.length, prev: function () { move(-1); }, next: function () { move(1); }, close: showList });
    detail.hidden = false;
    window.scrollTo(0, 0);
    if (step !== null && step !== undefined && !isNaN(step)) setHash({ trial: id, step: selectStep(view, stepIndexOf(view, step)) });
    else { view.current = -1; setHash({ trial: id }); }
  }
  function move(d) {
    var rows = trialTable.rows;
    if (!rows.length) return;
    var pos = open === null ? -1 : rows.indexOf(byId[open]);
    var next = pos < 0 ? (d > 0 ? 0 : rows.length - 1) : pos + d;
    if (next < 0 || next >= rows.length) return;
    openTrial(rows[next].task_id, null);
  }
  function moveStep(d) {
    if (!view || !view.nodes.length) return;
    var i = view.current === undefined || view.current < 0 ? (d > 0 ? 0 : view.nodes.length - 1) : view.current + d;
    setHash({ trial: open, step: selectStep(view, i) });
  }
  document.addEventListener('keydown', function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || typingInField(ev)) return;
    if (ev.key === 'j') move(1);
    else if (ev.key === 'k') move(-1);
    else if (ev.key === ']') moveStep(1);
    else if (ev.key === '[') moveStep(-1);
    else if (ev.key === 'Escape' && open !== null) showList();
    else return;
    ev.preventDefault();
  });

  trialTable.refresh(true);
  taskTable.refresh(true);
  function fromHash() {
    var h = parseHash();
    if (h.trial !== undefined && byId[h.trial]) {
      if (h.trial !== open || h.step === undefined) openTrial(h.trial, h.step === undefined ? null : Number(h.step));
      else if (view) selectStep(view, stepIndexOf(view, Number(h.step)));
    }
  }
  window.addEventListener('hashchange', fromHash);
  fromHash();
  document.body.setAttribute('data-ready', '1');
`;
