// The history page (pass-rate trend with 95% bands across runs) and the run list of
// `benchrig view DIR` (pick one run to open, or several to compare).

export const HISTORY_APP_JS = String.raw`
  var data = JSON.parse(document.getElementById('benchrig-data').textContent);
  var rows = data.rows;
  var gate = null;
  rows.forEach(function (r) { if (r.gate) gate = r.gate.threshold; });
  var box = document.getElementById('charts');
  box.appendChild(chart('chart-trend', 'pass rate across runs, with 95% intervals', trend(rows.map(function (r) {
    return { label: r.name, rate: r.pass_rate, low: r.pass_rate_ci95 ? r.pass_rate_ci95[0] : null, high: r.pass_rate_ci95 ? r.pass_rate_ci95[1] : null, note: r.version_changed ? 'version ' + r.version : '' };
  }), gate), 'oldest first; a note under a run marks a change of benchmark version (numbers across it are not strictly comparable)'));
  new Table({
    id: 'history', rows: function () { return rows; }, sort: null,
    columns: [
      { key: 'name', label: 'run', get: function (r) { return r.name; } },
      { key: 'started', label: 'started', get: function (r) { return r.started_at; } },
      { key: 'version', label: 'version', get: function (r) { return (r.version === null ? '?' : r.version) + (r.version_changed ? ' *' : ''); } },
      { key: 'status', label: 'status', get: function (r) { return r.status; } },
      { key: 'trials', label: 'trials', num: true, get: function (r) { return r.trials; }, render: function (r) { return r.trials === null ? '-' : String(r.trials); } },
      { key: 'pass', label: 'pass rate', num: true, get: function (r) { return r.pass_rate; }, render: function (r) { return pct(r.pass_rate); } },
      { key: 'ci', label: '95% CI', num: true, get: function (r) { return r.pass_rate_ci95 ? r.pass_rate_ci95[0] : null; }, render: function (r) { return r.pass_rate_ci95 ? pct(r.pass_rate_ci95[0]) + '\u2013' + pct(r.pass_rate_ci95[1]) : 'n/a'; } },
      { key: 'gate', label: 'gate', get: function (r) { return r.gate ? (r.gate.passed ? 'PASSED' : 'FAILED') + (r.gate.detail ? ': ' + r.gate.detail : '') : '-'; } },
      { key: 'note', label: 'note', cls: 'reason', get: function (r) { return r.note || ''; } }
    ]
  }).refresh(true);
  document.body.setAttribute('data-ready', '1');
`;

export const INDEX_APP_JS = String.raw`
  var data = JSON.parse(document.getElementById('benchrig-data').textContent);
  var runs = data.runs, chosen = {};
  var btn = document.getElementById('compare-selected'), search = document.getElementById('r-search'), q = '';
  runs.forEach(function (r) { r._q = (r.agent + ' ' + r.benchmark + ' ' + r.name + ' ' + r.status).toLowerCase(); });
  function update() {
    var ids = Object.keys(chosen).filter(function (k) { return chosen[k]; });
    btn.textContent = 'compare selected (' + ids.length + ')';
    btn.disabled = ids.length < 2;
    document.getElementById('open-selected').disabled = ids.length !== 1;
  }
  var table = new Table({
    id: 'runs', rows: function () { return runs; }, sort: 'started', dir: -1,
    rowId: function (r) { return String(r.i); },
    filter: function (r) { return !q || r._q.indexOf(q) >= 0; },
    columns: [
      { key: 'pick', label: 'pick', get: function (r) { return chosen[r.i] ? 0 : 1; }, render: function (r) {
        var c = el('input'); c.type = 'checkbox'; c.checked = !!chosen[r.i]; c.setAttribute('aria-label', 'select ' + r.name);
        c.addEventListener('click', function (ev) { ev.stopPropagation(); });
        c.addEventListener('change', function () { chosen[r.i] = c.checked; update(); });
        return c;
      } },
      { key: 'agent', label: 'agent', get: function (r) { return r.agent; } },
      { key: 'benchmark', label: 'benchmark', get: function (r) { return r.benchmark; } },
      { key: 'started', label: 'date', get: function (r) { return r.started_at; } },
      { key: 'pass', label: 'pass rate', num: true, get: function (r) { return r.pass_rate; }, render: function (r) {
        return pct(r.pass_rate) + (r.pass_rate_ci95 ? ' (' + pct(r.pass_rate_ci95[0]) + '\u2013' + pct(r.pass_rate_ci95[1]) + ')' : ''); } },
      { key: 'trials', label: 'trials', num: true, get: function (r) { return r.trials; }, render: function (r) { return r.trials === null ? '-' : String(r.trials); } },
      { key: 'status', label: 'status', get: function (r) { return r.status; } },
      { key: 'gate', label: 'gate', cls: 'reason', get: function (r) { return r.gate || ''; } },
      { key: 'open', label: 'open', get: function (r) { return r.name; }, render: function (r) {
        var out = [];
        if (r.has_report) { var a = el('a', null, 'report'); a.href = 'run/' + r.i + '/'; out.push(a); } else out.push(el('span', 'note', r.note || 'no report'));
        var hi = el('a', null, 'history'); hi.href = 'history/' + r.group + '/'; out.push(' \u00b7 ', hi);
        return out;
      } }
    ],
    onClick: function (r, tr, ev) {
      if (ev.target && (ev.target.tagName === 'A' || ev.target.tagName === 'INPUT')) return;
      chosen[r.i] = !chosen[r.i]; table.refresh(false); update();
    }
  });
  search.addEventListener('input', function () { q = search.value.trim().toLowerCase(); table.refresh(true); });
  btn.addEventListener('click', function () {
    var ids = Object.keys(chosen).filter(function (k) { return chosen[k]; }).map(Number).sort(function (a, b) {
      return String(runs[a].started_at).localeCompare(String(runs[b].started_at));
    });
    if (ids.length >= 2) location.href = 'compare?runs=' + ids.join(',');
  });
  document.getElementById('open-selected').addEventListener('click', function () {
    var ids = Object.keys(chosen).filter(function (k) { return chosen[k]; });
    if (ids.length === 1) location.href = 'run/' + ids[0] + '/';
  });
  table.refresh(true);
  update();
  document.body.setAttribute('data-ready', '1');
`;
