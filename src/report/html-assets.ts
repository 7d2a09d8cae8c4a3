// The inline style and script of report.html. The page loads nothing: both are inlined and allowed
// by hash in its CSP. The script builds every node from the embedded JSON with textContent, never
// innerHTML, so a reply of `<script>` or `<img onerror>` shows as text. Kept ASCII so the hash
// the server computes is the hash the browser computes.

export const REPORT_CSS = `
:root { --fg:#1f2328; --muted:#59636e; --line:#d1d9e0; --bg:#fff; --soft:#f6f8fa; --pass:#1a7f37; --fail:#cf222e; --warn:#9a6700; --info:#0969da; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header, main { max-width: 1200px; margin: 0 auto; padding: 0 16px; }
header { padding-top: 16px; border-bottom: 1px solid var(--line); }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 24px 0 8px; } h3 { font-size: 14px; margin: 16px 0 6px; }
.sub { color: var(--muted); margin: 0 0 12px; word-break: break-all; }
.cards { display: flex; flex-wrap: wrap; gap: 8px; margin: 12px 0; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; min-width: 140px; background: var(--soft); }
.card .k { color: var(--muted); font-size: 12px; } .card .v { font-size: 20px; font-weight: 600; } .card .n { color: var(--muted); font-size: 12px; }
.gate { padding: 8px 12px; border-radius: 6px; margin: 8px 0; font-weight: 600; }
.gate.pass { background: #dafbe1; color: var(--pass); } .gate.fail { background: #ffebe9; color: var(--fail); } .gate.none { background: var(--soft); color: var(--muted); }
table { border-collapse: collapse; width: 100%; margin: 4px 0 8px; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--soft); font-weight: 600; white-space: nowrap; }
th.sortable { cursor: pointer; user-select: none; } th.sorted-asc::after { content: " \\25B2"; } th.sorted-desc::after { content: " \\25BC"; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tbody tr.clickable { cursor: pointer; } tbody tr.clickable:hover { background: #eef4fd; } tr.selected { background: #ddf4ff; }
.badge { display: inline-block; padding: 0 6px; border-radius: 10px; font-size: 12px; font-weight: 600; border: 1px solid currentColor; white-space: nowrap; }
.s-PASSED, .v-pass { color: var(--pass); } .s-FAILED, .s-TIMEOUT, .s-AGENT_ERROR, .v-fail { color: var(--fail); }
.s-SANDBOX_ERROR, .s-UNGRADABLE, .s-AWAITING_REVIEW, .v-null { color: var(--warn); }
.controls { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 8px 0; }
.controls label { color: var(--muted); } select, input, button { font: inherit; padding: 2px 6px; }
.pager { display: flex; gap: 8px; align-items: center; color: var(--muted); }
.reason { color: var(--muted); max-width: 520px; overflow-wrap: anywhere; }
pre { background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px; margin: 4px 0; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 420px; overflow: auto; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
.event { border-left: 3px solid var(--line); padding: 2px 0 2px 10px; margin: 6px 0; }
.event .head { font-size: 12px; color: var(--muted); } .event .head b { color: var(--fg); }
.ev-user_message { border-color: var(--info); } .ev-agent_message { border-color: var(--pass); }
.ev-tool_call, .ev-tool_result { border-color: #8250df; } .ev-check { border-color: var(--warn); } .ev-log { border-color: var(--line); }
#detail { border: 1px solid var(--line); border-radius: 8px; padding: 0 16px 12px; margin: 16px 0 48px; }
#detail[hidden] { display: none; }
.kv th { width: 1%; white-space: nowrap; font-weight: 500; background: none; color: var(--muted); }
.kv { width: auto; min-width: 40%; }
.note { color: var(--muted); font-size: 12px; }
.cut { color: var(--warn); font-size: 12px; }
ul.plain { margin: 4px 0; padding-left: 20px; }
`;

export const REPORT_JS = `
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('benchrig-data').textContent);
  var trials = data.trials;
  var PAGE = data.page_size || 200;
  var FAILING = { FAILED: 1, TIMEOUT: 1, AGENT_ERROR: 1 };

  function el(tag, cls, children) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    if (children !== undefined && children !== null) append(n, children);
    return n;
  }
  function append(n, c) {
    if (c === undefined || c === null) return n;
    if (Array.isArray(c)) { for (var i = 0; i < c.length; i++) append(n, c[i]); return n; }
    if (typeof c === 'object' && c.nodeType) { n.appendChild(c); return n; }
    n.appendChild(document.createTextNode(String(c)));
    return n;
  }
  function clear(n) { while (n.firstChild) n.removeChild(n.firstChild); }
  function pct(x) { return x === null || x === undefined ? 'n/a' : (x * 100).toFixed(1) + '%'; }
  function fmt(x, d) { return x === null || x === undefined ? 'n/a' : String(Number(Number(x).toFixed(d === undefined ? 3 : d))); }
  function badge(status) { return el('span', 'badge s-' + status.replace(/[^A-Z_]/g, ''), status); }
  function verdict(passed) {
    if (passed === true) return el('span', 'badge v-pass', 'passed');
    if (passed === false) return el('span', 'badge v-fail', 'failed');
    return el('span', 'badge v-null', 'ungradable');
  }
  function option(value, label) { var o = el('option', null, label); o.value = value; return o; }
  function pre(text) { return el('pre', null, text); }

  // Any JSON value as nodes: objects become key/value tables (depth-bounded), long text a <pre>.
  function value(v, depth) {
    depth = depth || 0;
    if (v === null || v === undefined) return el('span', 'note', 'null');
    if (typeof v === 'string') return v.length > 80 || v.indexOf('\\n') >= 0 ? pre(v) : document.createTextNode(v);
    if (typeof v !== 'object') return document.createTextNode(String(v));
    if (depth > 4) return pre(JSON.stringify(v, null, 2));
    if (Array.isArray(v)) {
      if (v.length === 0) return el('span', 'note', '[]');
      var simple = v.every(function (x) { return x === null || typeof x !== 'object'; });
      if (simple) return document.createTextNode(v.map(function (x) { return String(x); }).join(', '));
      var ul = el('ul', 'plain');
      v.forEach(function (x) { ul.appendChild(el('li', null, value(x, depth + 1))); });
      return ul;
    }
    var keys = Object.keys(v);
    if (keys.length === 0) return el('span', 'note', '{}');
    var t = el('table', 'kv');
    keys.forEach(function (k) { t.appendChild(el('tr', null, [el('th', null, k), el('td', null, value(v[k], depth + 1))])); });
    return t;
  }

  // ---- a paginated, sortable, filterable table
  function Table(opts) {
    this.o = opts; this.page = 0; this.sort = opts.sort; this.dir = opts.dir || 1; this.rows = [];
    this.root = document.getElementById(opts.id);
  }
  Table.prototype.refresh = function (resetPage) {
    var o = this.o, self = this;
    if (resetPage) this.page = 0;
    var rows = o.rows().filter(o.filter);
    var col = o.columns.filter(function (c) { return c.key === self.sort; })[0];
    if (col) {
      rows.sort(function (a, b) {
        var x = col.sortValue ? col.sortValue(a) : col.get(a), y = col.sortValue ? col.sortValue(b) : col.get(b);
        if (x === y) return 0;
        if (x === null || x === undefined) return 1;
        if (y === null || y === undefined) return -1;
        return (x < y ? -1 : 1) * self.dir;
      });
    }
    this.rows = rows;
    var pages = Math.max(1, Math.ceil(rows.length / PAGE));
    if (this.page >= pages) this.page = pages - 1;
    var start = this.page * PAGE, shown = rows.slice(start, start + PAGE);
    clear(this.root);
    var table = el('table'), head = el('tr');
    o.columns.forEach(function (c) {
      var th = el('th', 'sortable' + (c.num ? ' num' : '') + (self.sort === c.key ? (self.dir > 0 ? ' sorted-asc' : ' sorted-desc') : ''), c.label);
      th.setAttribute('data-col', c.key);
      th.addEventListener('click', function () {
        if (self.sort === c.key) self.dir = -self.dir; else { self.sort = c.key; self.dir = 1; }
        self.refresh(false);
      });
      head.appendChild(th);
    });
    table.appendChild(el('thead', null, head));
    var body = el('tbody');
    shown.forEach(function (r) {
      var tr = el('tr', o.onClick ? 'clickable' : null);
      if (o.rowId) tr.setAttribute('data-id', o.rowId(r));
      o.columns.forEach(function (c) { tr.appendChild(el('td', (c.num ? 'num ' : '') + (c.cls || ''), c.render ? c.render(r) : c.get(r))); });
      if (o.onClick) tr.addEventListener('click', function () { o.onClick(r, tr); });
      body.appendChild(tr);
    });
    table.appendChild(body);
    var pager = el('div', 'pager');
    var prev = el('button', null, 'previous'), next = el('button', null, 'next');
    prev.disabled = this.page === 0; next.disabled = this.page >= pages - 1;
    prev.addEventListener('click', function () { self.page--; self.refresh(false); });
    next.addEventListener('click', function () { self.page++; self.refresh(false); });
    var count = el('span', 'count', rows.length === 0 ? 'no rows match' :
      'showing ' + (start + 1) + '\\u2013' + (start + shown.length) + ' of ' + rows.length + (rows.length !== o.rows().length ? ' (filtered from ' + o.rows().length + ')' : ''));
    append(pager, [prev, next, count, el('span', null, 'page ' + (this.page + 1) + ' of ' + pages)]);
    this.root.appendChild(table);
    this.root.appendChild(pager);
  };

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
  (data.report.checks || []).forEach(function (c) { checkSel.appendChild(option(c.name, c.name + ' (' + c.type + ')')); });
  function checkOf(t, name) { for (var i = 0; i < t.checks.length; i++) if (t.checks[i].name === name) return t.checks[i]; return null; }
  function trialFilter(t) {
    if (f.sample !== null && t.sample_id !== f.sample) return false;
    if (f.status === 'FAILING' ? !FAILING[t.status] : f.status && t.status !== f.status) return false;
    if (f.check) {
      var c = checkOf(t, f.check);
      if (!c) return false;
      var want = f.verdict === 'passed' ? true : f.verdict === 'failed' ? false : f.verdict === 'ungradable' ? null : undefined;
      if (want !== undefined && c.passed !== want) return false;
    }
    if (f.q) {
      var q = f.q.toLowerCase();
      if ((t.task_id + ' ' + t.sample_id + ' ' + t.reason).toLowerCase().indexOf(q) < 0) return false;
    }
    return true;
  }

  var trialTable = new Table({
    id: 'trials', rows: function () { return trials; }, filter: trialFilter, sort: 'task',
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
    onClick: function (t) { openTrial(t.task_id, true); }
  });

  var taskTable = new Table({
    id: 'tasks', rows: function () { return data.report.tasks || []; }, sort: 'sample',
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

  // ---- one trial
  var byId = {};
  trials.forEach(function (t) { byId[t.task_id] = t; });

  function event(e) {
    var box = el('div', 'event ev-' + String(e.type).replace(/[^a-z_]/g, ''));
    var head = el('div', 'head', [el('b', null, String(e.type).replace(/_/g, ' ')), ' \\u00b7 step ' + e.step + (typeof e.ts === 'number' ? ' \\u00b7 ' + e.ts.toFixed(2) + 's' : '')]);
    box.appendChild(head);
    if (e.type === 'user_message' || e.type === 'agent_message') {
      if (e.done) append(head, ' \\u00b7 done'); if (e.blocked) append(head, ' \\u00b7 blocked');
      box.appendChild(pre(e.content));
    } else if (e.type === 'tool_call') {
      append(head, [' \\u00b7 ', el('b', null, e.tool)]);
      box.appendChild(pre(typeof e.args === 'string' ? e.args : JSON.stringify(e.args, null, 2)));
    } else if (e.type === 'tool_result') {
      append(head, [' \\u00b7 ', el('b', null, e.tool), e.exit_code !== undefined ? ' \\u00b7 exit ' + e.exit_code : '', e.denied ? ' \\u00b7 DENIED' : '']);
      if (e.error) box.appendChild(el('div', 'v-fail', e.error));
      box.appendChild(pre(e.output));
    } else if (e.type === 'llm_call') {
      append(head, ' \\u00b7 ' + (e.role || 'agent') + ' \\u00b7 ' + e.model + ' \\u00b7 ' + e.latency_ms + ' ms' + (e.tokens ? ' \\u00b7 tokens ' + e.tokens.input + ' in / ' + e.tokens.output + ' out' : ''));
      if (e.error) box.appendChild(el('div', 'v-fail', e.error));
    } else if (e.type === 'check') {
      append(head, [' \\u00b7 ', el('b', null, e.name), ' ', verdict(e.passed)]);
      box.appendChild(el('div', 'reason', e.reason));
    } else if (e.type === 'log') {
      append(head, ' \\u00b7 ' + e.level); box.appendChild(el('div', null, e.message));
    } else if (e.type === 'cut') {
      box.appendChild(el('div', 'cut', e.message));
    } else {
      var rest = {}; Object.keys(e).forEach(function (k) { if (k !== 'type' && k !== 'step' && k !== 'ts') rest[k] = e[k]; });
      box.appendChild(value(rest));
    }
    return box;
  }

  function artifact(name, a) {
    var out = [el('h3', null, name)];
    if (a && typeof a === 'object' && ('stdout' in a || 'stderr' in a)) {
      out.push(el('div', 'note', 'exit code ' + (a.exit_code === undefined ? 'n/a' : a.exit_code) + (a.timed_out ? ', timed out' : '') + (a.truncated ? ', truncated' : '')));
      out.push(el('div', 'note', 'stdout'), pre(a.stdout || ''));
      if (a.stderr) out.push(el('div', 'note', 'stderr'), pre(a.stderr));
    } else out.push(value(a));
    return out;
  }

  function openTrial(id, scroll) {
    var t = byId[id], d = document.getElementById('detail');
    if (!t) return;
    var sel = document.querySelectorAll('tr.selected');
    for (var i = 0; i < sel.length; i++) sel[i].classList.remove('selected');
    var rows = document.querySelectorAll('#trials tbody tr');
    for (i = 0; i < rows.length; i++) if (rows[i].getAttribute('data-id') === id) rows[i].classList.add('selected');
    clear(d); d.hidden = false;
    var close = el('button', null, 'close');
    close.addEventListener('click', function () { d.hidden = true; if (history.replaceState) history.replaceState(null, '', '#'); });
    append(d, [el('h2', null, ['trial ', el('span', 'mono', t.task_id), ' ', badge(t.status), ' ']), close]);
    var md = t.metadata || {};
    append(d, value({
      sample: t.sample_id, trial: t.trial, score: t.score, 'stop reason': t.stop_reason, 'trace id': t.trace_id,
      session: t.session_id, started: t.started_at, finished: t.finished_at,
      'execution time (s)': md.execution_time_s, 'timings (s)': md.timings_s,
      'llm calls': md.llm_calls, 'user llm calls': md.user_llm_calls, tokens: md.tokens, 'cost (USD)': md.cost_usd,
      'tools used': md.tools_used, sandbox: md.sandbox, limit: md.limit
    }));
    if (t.error) append(d, [el('h3', null, 'error'), pre(t.error.kind + ': ' + t.error.message + (t.error.cause ? '\\n' + t.error.cause : ''))]);
    if (t.cut) append(d, el('p', 'cut', t.cut));
    d.appendChild(el('h3', null, 'checks'));
    if (t.checks.length === 0) d.appendChild(el('p', 'note', 'no verdicts'));
    else {
      var ct = el('table', 'checks', el('tr', null, [el('th', null, 'check'), el('th', null, 'type'), el('th', null, 'verdict'), el('th', 'num', 'score'), el('th', null, 'reason'), el('th', null, 'details')]));
      t.checks.forEach(function (c) {
        ct.appendChild(el('tr', null, [el('td', null, c.name), el('td', null, c.type), el('td', null, verdict(c.passed)), el('td', 'num', fmt(c.score, 3)),
          el('td', 'reason', c.reason), el('td', null, c.details && Object.keys(c.details).length ? value(c.details) : '')]));
      });
      d.appendChild(ct);
    }
    append(d, [el('h3', null, 'prompt'), pre(t.prompt), el('h3', null, 'response'), pre(t.response)]);
    d.appendChild(el('h3', null, 'conversation and tool calls (' + t.events.length + ' events)'));
    var conv = el('div', 'conversation');
    t.events.forEach(function (e) { conv.appendChild(event(e)); });
    d.appendChild(conv);
    var arts = Object.keys(t.artifacts || {});
    if (arts.length) { d.appendChild(el('h2', null, 'artifacts')); arts.forEach(function (k) { append(d, artifact(k, t.artifacts[k])); }); }
    if (t.final_state && Object.keys(t.final_state).length) append(d, [el('h3', null, 'final state'), value(t.final_state)]);
    if (scroll) { d.scrollIntoView(); if (history.replaceState) history.replaceState(null, '', '#trial=' + encodeURIComponent(id)); }
  }

  trialTable.refresh(true);
  taskTable.refresh(true);
  function fromHash() {
    var m = /^#trial=(.*)$/.exec(location.hash);
    if (m) { try { openTrial(decodeURIComponent(m[1]), true); } catch (err) { /* a malformed link opens nothing */ } }
  }
  window.addEventListener('hashchange', fromHash);
  fromHash();
  document.body.setAttribute('data-ready', '1');
})();
`;
