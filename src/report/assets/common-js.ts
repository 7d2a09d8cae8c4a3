// The script every benchrig page starts with: DOM helpers (text only: every value becomes a text
// node, never markup), a paged table, SVG helpers for the charts and the trial page. Each page's
// own part (report-js.ts, compare-js.ts, ...) follows it inside one IIFE. Plain ES5, ASCII only.

export const COMMON_JS = String.raw`
  var FAILING = { FAILED: 1, TIMEOUT: 1, AGENT_ERROR: 1 };
  var SVGNS = 'http://www.w3.org/2000/svg';

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
  function secs(x) { return x === null || x === undefined ? 'n/a' : (x < 10 ? x.toFixed(2) : x.toFixed(1)) + 's'; }
  function badge(status) { return el('span', 'badge s-' + String(status).replace(/[^A-Z_]/g, ''), String(status)); }
  function verdict(passed) {
    if (passed === true) return el('span', 'badge v-pass', '\u2713 passed');
    if (passed === false) return el('span', 'badge v-fail', '\u2717 failed');
    return el('span', 'badge v-null', '? ungradable');
  }
  function option(value, label) { var o = el('option', null, label); o.value = value; return o; }
  function pre(text) { return el('pre', null, text === undefined || text === null ? '' : String(text)); }
  function attr(n, k, v) { n.setAttribute(k, String(v)); return n; }
  function panel(title, body, open) {
    var d = el('details', 'panel', el('summary', null, title));
    if (open) d.open = true;
    append(d, body);
    return d;
  }
  function typingInField(ev) {
    var t = ev.target, tag = t && t.tagName;
    return tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || (t && t.isContentEditable);
  }

  // Any JSON value as nodes: objects become key/value tables (depth-bounded), long text a <pre>.
  function value(v, depth) {
    depth = depth || 0;
    if (v === null || v === undefined) return el('span', 'note', 'null');
    if (typeof v === 'string') return v.length > 80 || v.indexOf('\n') >= 0 ? pre(v) : document.createTextNode(v);
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

  // ---- a paged, sortable, filterable table: only one page of rows is ever in the DOM
  function Table(opts) {
    this.o = opts; this.page = 0; this.sort = opts.sort; this.dir = opts.dir || 1; this.rows = [];
    this.root = document.getElementById(opts.id);
  }
  Table.prototype.refresh = function (resetPage) {
    var o = this.o, self = this, PAGE = o.pageSize || 200;
    if (resetPage) this.page = 0;
    var all = o.rows();
    var rows = o.filter ? all.filter(o.filter) : all.slice();
    var col = o.columns.filter(function (c) { return c.key === self.sort; })[0];
    if (col) {
      var keyed = rows.map(function (r, i) { return { r: r, k: col.sortValue ? col.sortValue(r) : col.get(r), i: i }; });
      keyed.sort(function (a, b) {
        var x = a.k, y = b.k;
        if (x === y) return a.i - b.i;
        if (x === null || x === undefined) return 1;
        if (y === null || y === undefined) return -1;
        return (x < y ? -1 : 1) * self.dir;
      });
      rows = keyed.map(function (e) { return e.r; });
    }
    this.rows = rows;
    var pages = Math.max(1, Math.ceil(rows.length / PAGE));
    if (this.page >= pages) this.page = pages - 1;
    var start = this.page * PAGE, shown = rows.slice(start, start + PAGE);
    clear(this.root);
    var table = el('table', o.cls || null), head = el('tr');
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
      o.columns.forEach(function (c) {
        var td = el('td', (c.num ? 'num ' : '') + (c.cls || ''));
        append(td, c.render ? c.render(r, td) : c.get(r));
        tr.appendChild(td);
      });
      if (o.onClick) tr.addEventListener('click', function (ev) { o.onClick(r, tr, ev); });
      body.appendChild(tr);
    });
    table.appendChild(body);
    var pager = el('div', 'pager');
    var prev = el('button', null, 'previous'), next = el('button', null, 'next');
    prev.disabled = this.page === 0; next.disabled = this.page >= pages - 1;
    prev.addEventListener('click', function () { self.page--; self.refresh(false); });
    next.addEventListener('click', function () { self.page++; self.refresh(false); });
    var count = el('span', 'count', rows.length === 0 ? 'no rows match' :
      'showing ' + (start + 1) + '\u2013' + (start + shown.length) + ' of ' + rows.length + (rows.length !== all.length ? ' (filtered from ' + all.length + ')' : ''));
    append(pager, [prev, next, count, el('span', null, 'page ' + (this.page + 1) + ' of ' + pages)]);
    this.root.appendChild(table);
    this.root.appendChild(pager);
    if (o.after) o.after(rows);
  };
  Table.prototype.showRow = function (row) {
    var i = this.rows.indexOf(row), PAGE = this.o.pageSize || 200;
    if (i >= 0 && Math.floor(i / PAGE) !== this.page) { this.page = Math.floor(i / PAGE); this.refresh(false); }
  };

  // ---- SVG: every label is a text node; numbers ride along as data-* attributes
  function svg(tag, attrs, children) {
    var n = document.createElementNS(SVGNS, tag);
    if (attrs) Object.keys(attrs).forEach(function (k) { if (attrs[k] !== undefined && attrs[k] !== null) n.setAttribute(k, String(attrs[k])); });
    if (children !== undefined && children !== null) {
      (Array.isArray(children) ? children : [children]).forEach(function (c) {
        if (c === null || c === undefined) return;
        n.appendChild(typeof c === 'object' && c.nodeType ? c : document.createTextNode(String(c)));
      });
    }
    return n;
  }
  function svgText(x, y, text, attrs) {
    var a = attrs || {}; a.x = x; a.y = y;
    return svg('text', a, String(text));
  }
  function plot(w, h, label) { return svg('svg', { 'class': 'plot', viewBox: '0 0 ' + w + ' ' + h, role: 'img', 'aria-label': label }); }
  function chart(id, title, node, note) {
    var f = el('figure', 'chart', [el('figcaption', null, title), node]);
    f.id = id;
    if (note) f.appendChild(el('div', 'note', note));
    return f;
  }
  function clip(s, n) { s = String(s); return s.length > n ? s.slice(0, n - 1) + '\u2026' : s; }

  // ---- the trial page: the trajectory first, verdicts at the end, metadata folded away
  var STATUS_ORDER = ['PASSED', 'FAILED', 'TIMEOUT', 'AGENT_ERROR', 'SANDBOX_ERROR', 'UNGRADABLE', 'AWAITING_REVIEW'];

  function firstLine(s) {
    s = String(s === undefined || s === null ? '' : s);
    var i = s.indexOf('\n');
    return i < 0 ? s : s.slice(0, i) + ' \u2026';
  }
  function argsText(args) { return typeof args === 'string' ? args : JSON.stringify(args, null, 2); }
  function commandOf(args) {
    if (typeof args === 'string') return args;
    if (!args || typeof args !== 'object') return String(args);
    var keys = ['command', 'cmd', 'code', 'query', 'path', 'answer', 'input'];
    for (var i = 0; i < keys.length; i++) if (typeof args[keys[i]] === 'string') return args[keys[i]];
    return JSON.stringify(args);
  }

  // Events grouped into steps: a tool call and its result are one step (paired by id, else by
  // the next result of the same tool). Each step keeps the step numbers of its events.
  function stepsOf(events) {
    var steps = [], openCalls = [];
    events.forEach(function (e) {
      if (e.type === 'tool_result') {
        for (var i = 0; i < openCalls.length; i++) {
          var c = openCalls[i];
          if ((e.id && c.call.id === e.id) || (!e.id && c.call.tool === e.tool)) {
            c.result = e; c.last = e.step; openCalls.splice(i, 1); return;
          }
        }
        steps.push({ kind: 'tool', call: null, result: e, first: e.step, last: e.step });
        return;
      }
      var s = { kind: e.type === 'tool_call' ? 'tool' : e.type, event: e, call: e.type === 'tool_call' ? e : null, result: null, first: e.step, last: e.step };
      steps.push(s);
      if (e.type === 'tool_call') openCalls.push(s);
    });
    return steps;
  }

  function toolStep(s) {
    var call = s.call, res = s.result, tool = (call || res).tool;
    var d = el('details', 'tool');
    var exit = res ? (res.denied ? el('span', 'exit bad', 'denied') : res.error ? el('span', 'exit bad', 'error') :
      res.exit_code === undefined ? el('span', 'exit', 'done') : el('span', 'exit ' + (res.exit_code === 0 ? 'ok' : 'bad'), 'exit ' + res.exit_code)) : el('span', 'exit bad', 'no result');
    var dur = call && res && typeof call.ts === 'number' && typeof res.ts === 'number' ? secs(Math.max(0, res.ts - call.ts)) : '';
    d.appendChild(el('summary', null, [el('span', 'tool-name', tool), el('span', 'cmd', call ? firstLine(commandOf(call.args)) : ''), exit, el('span', 'dur', dur)]));
    var body = el('div', 'tool-body');
    if (call) append(body, [el('div', 'note', 'arguments'), pre(argsText(call.args))]);
    if (res) {
      if (res.error) body.appendChild(el('div', 'error-box', res.error));
      append(body, [el('div', 'note', 'output'), pre(res.output)]);
      var extra = rest(res, ['type', 'step', 'ts', 'tool', 'exit_code', 'output', 'denied', 'id', 'error']);
      if (extra) body.appendChild(value(extra));
    }
    d.appendChild(body);
    return d;
  }
  function rest(e, known) {
    var out = null;
    Object.keys(e).forEach(function (k) { if (known.indexOf(k) < 0) { out = out || {}; out[k] = e[k]; } });
    return out;
  }

  function stepNode(s, ctx) {
    var e = s.event, box;
    if (s.kind === 'tool') box = toolStep(s);
    else if (e.type === 'user_message') {
      var sim = ctx.userTurns++ > 0;
      box = el('div', 'turn ' + (sim ? 'sim-user' : 'user'), [
        el('div', 'who', sim ? ['simulated user', el('span', 'tag', 'turn ' + ctx.userTurns)] : ['user', el('span', 'tag', 'task prompt')]),
        el('div', 'body', e.content)]);
    } else if (e.type === 'agent_message') {
      var flags = [];
      if (e.done) flags.push(el('span', 'tag', 'done'));
      if (e.blocked) flags.push(el('span', 'tag', 'blocked'));
      box = el('div', 'turn agent', [el('div', 'who', ['agent'].concat(flags)), el('div', 'body', e.content)]);
    } else if (e.type === 'llm_call') {
      var role = e.role || 'agent';
      var parts = [el('span', 'dotm'), el('span', null, 'model call'), el('b', null, role === 'user' ? 'simulated user' : role), el('span', 'mono', String(e.model)),
        el('span', 'latency', e.latency_ms === undefined ? '' : e.latency_ms + ' ms'), el('span', 'tokens', e.tokens ? e.tokens.input + ' in / ' + e.tokens.output + ' out tokens' : '')];
      var x = rest(e, ['type', 'step', 'ts', 'role', 'model', 'latency_ms', 'tokens', 'error']);
      if (x) parts.push(el('span', 'note', JSON.stringify(x)));
      box = el('div', 'marker-line' + (e.error ? ' err' : ''), parts);
      if (e.error) box.appendChild(el('span', null, 'error: ' + e.error));
    } else if (e.type === 'check') {
      box = el('div', 'marker-line', [el('span', 'dotm'), el('span', null, 'check'), el('b', null, e.name), verdict(e.passed), el('span', 'reason', e.reason)]);
    } else if (e.type === 'log') {
      box = el('div', 'marker-line' + (e.level === 'error' ? ' err' : e.level === 'warn' ? ' warn' : ''), [el('span', 'dotm'), el('span', null, 'log ' + e.level), el('span', null, e.message)]);
    } else if (e.type === 'cut') {
      box = el('div', 'cut', e.message);
    } else {
      // an event kind this page does not know (newer harness): its type and every field, as text
      var r = rest(e, ['type', 'step', 'ts']);
      box = el('details', 'tool', [el('summary', null, [el('span', 'tool-name', String(e.type).replace(/_/g, ' ')), el('span', 'cmd', r ? firstLine(JSON.stringify(r)) : '')]),
        el('div', 'tool-body', r ? value(r) : null)]);
    }
    var li = el('li', 'step', [el('span', 'n', String(s.first)), box]);
    attr(li, 'data-step', s.first); attr(li, 'data-kind', s.kind);
    if (typeof (e || s.call || s.result).ts === 'number') li.title = 't = ' + (e || s.call || s.result).ts.toFixed(2) + 's';
    return li;
  }

  function criteriaTable(details) {
    var scores = details && details.scores;
    if (!scores || typeof scores !== 'object' || Array.isArray(scores)) return null;
    var t = el('table', 'criteria', el('tr', null, [el('th', null, 'criterion'), el('th', 'num', 'score'), el('th', null, 'reasoning')]));
    Object.keys(scores).forEach(function (k) {
      var s = scores[k], sc = s && typeof s === 'object' ? s.score : s;
      var tr = el('tr', null, [el('td', null, k), el('td', 'num', fmt(sc, 2)), el('td', 'reason', s && typeof s === 'object' ? (s.reasoning || s.reason || '') : '')]);
      attr(tr, 'data-criterion', k);
      t.appendChild(tr);
    });
    return t;
  }

  function verdicts(checks) {
    var box = el('div', 'verdicts');
    if (!checks.length) { box.appendChild(el('p', 'note', 'no verdicts')); return box; }
    checks.forEach(function (c) {
      var row = el('div', 'verdict-row', [verdict(c.passed), el('span', 'vname', c.name), el('span', 'note', c.type + ' \u00b7 score ' + fmt(c.score, 3)), el('span', 'vreason', c.reason)]);
      attr(row, 'data-check', c.name);
      box.appendChild(row);
      var ct = criteriaTable(c.details);
      if (ct) box.appendChild(ct);
      if (c.details && Object.keys(c.details).length) {
        var other = rest(c.details, ct ? ['scores'] : []);
        if (other) box.appendChild(panel('details of ' + c.name, value(other)));
      }
    });
    return box;
  }

  function artifact(name, a) {
    var out = [];
    if (a && typeof a === 'object' && ('stdout' in a || 'stderr' in a)) {
      out.push(el('div', 'note', 'exit code ' + (a.exit_code === undefined ? 'n/a' : a.exit_code) + (a.timed_out ? ', timed out' : '') + (a.truncated ? ', truncated' : '')));
      out.push(el('div', 'note', 'stdout'), pre(a.stdout || ''));
      if (a.stderr) out.push(el('div', 'note', 'stderr'), pre(a.stderr));
    } else out.push(value(a));
    return panel('artifact ' + name, out);
  }

  // The trial page into root. nav: { pos, total, label, prev(), next(), close() }.
  function renderTrial(root, t, nav) {
    clear(root);
    var md = t.metadata || {};
    var head = el('div', 'trial-head');
    var h = el('h2', null, [el('span', 'mono', t.task_id), badge(t.status)]);
    if (t.score !== null && t.score !== undefined) h.appendChild(el('span', 'note', 'score ' + fmt(t.score, 3)));
    head.appendChild(h);
    var back = el('button', 'close', '\u2190 back'), prev = el('button', 'prev', '\u2191 previous'), next = el('button', 'next', 'next \u2193');
    back.addEventListener('click', nav.close); prev.addEventListener('click', nav.prev); next.addEventListener('click', nav.next);
    prev.disabled = !(nav.pos > 0); next.disabled = !(nav.pos >= 0 && nav.pos < nav.total - 1);
    head.appendChild(el('div', 'trial-nav', [back, prev, next,
      nav.pos >= 0 ? el('span', 'pos', 'trial ' + (nav.pos + 1) + ' of ' + nav.total + ' ' + (nav.label || 'in the filter')) : el('span', 'pos', 'not in the current filter'),
      el('span', null, ['keys: ', el('kbd', null, 'j'), '/', el('kbd', null, 'k'), ' trial, ', el('kbd', null, '['), '/', el('kbd', null, ']'), ' step'])]));
    var facts = ['sample ' + t.sample_id, 'trial ' + t.trial, 'stop ' + t.stop_reason, secs(t.execution_time_s)];
    if (md.llm_calls !== undefined) facts.push(md.llm_calls + ' model call(s)');
    if (md.tokens) facts.push(md.tokens.input + ' in / ' + md.tokens.output + ' out tokens');
    if (md.cost_usd !== undefined && md.cost_usd !== null) facts.push('$' + Number(md.cost_usd).toFixed(4));
    if (md.limit && md.limit.kind) facts.push('limit ' + md.limit.kind + ' ' + md.limit.value + '/' + md.limit.limit);
    head.appendChild(el('div', 'trial-facts', facts.join(' \u00b7 ')));
    if (t.reason) head.appendChild(el('div', 'trial-facts reason-line', t.reason));
    root.appendChild(head);
    if (t.error) root.appendChild(el('div', 'error-box', [el('b', null, String(t.error.kind)), ': ' + t.error.message + (t.error.cause ? '\n' + (typeof t.error.cause === 'string' ? t.error.cause : JSON.stringify(t.error.cause)) : '')]));
    if (t.cut) root.appendChild(el('p', 'cut', t.cut));

    var events = t.events || [];
    root.appendChild(el('h3', null, 'trajectory (' + events.length + ' events)'));
    var hasUser = events.some(function (e) { return e.type === 'user_message'; });
    var tl = el('ol', 'timeline');
    if (!hasUser && t.prompt) tl.appendChild(el('li', 'step', el('div', 'turn user', [el('div', 'who', ['user', el('span', 'tag', 'task prompt')]), el('div', 'body', t.prompt)])));
    var steps = stepsOf(events), ctx = { userTurns: 0 }, nodes = [];
    steps.forEach(function (s) { var n = stepNode(s, ctx); s.node = n; nodes.push(n); tl.appendChild(n); });
    if (steps.length === 0) tl.appendChild(el('li', 'note', 'no events recorded'));
    var hasAgent = events.some(function (e) { return e.type === 'agent_message'; });
    if (!hasAgent && t.response) tl.appendChild(el('li', 'step', el('div', 'turn agent', [el('div', 'who', ['agent', el('span', 'tag', 'final response')]), el('div', 'body', t.response)])));
    root.appendChild(tl);

    root.appendChild(el('h3', null, 'verdicts'));
    root.appendChild(verdicts(t.checks || []));
    if (t.prompt !== undefined && hasUser || t.response !== undefined && hasAgent) {
      var pr = [];
      if (t.prompt !== undefined && hasUser) pr.push(el('div', 'note', 'prompt'), pre(t.prompt));
      if (t.response !== undefined && hasAgent) pr.push(el('div', 'note', 'response (what the checks graded)'), pre(t.response));
      root.appendChild(panel('prompt and graded response', pr));
    }
    var meta = { sample: t.sample_id, trial: t.trial, score: t.score, 'stop reason': t.stop_reason, 'trace id': t.trace_id, session: t.session_id, started: t.started_at, finished: t.finished_at };
    Object.keys(md).forEach(function (k) { meta[k.replace(/_/g, ' ')] = md[k]; });
    var mp = panel('metadata: timings, sandbox, ids', value(meta));
    mp.id = 'trial-meta';
    root.appendChild(mp);
    Object.keys(t.artifacts || {}).forEach(function (k) { root.appendChild(artifact(k, t.artifacts[k])); });
    if (t.final_state && Object.keys(t.final_state).length) root.appendChild(panel('final state', value(t.final_state)));
    if (t.extra && Object.keys(t.extra).length) root.appendChild(panel('other fields', value(t.extra), true));
    return { steps: steps, nodes: nodes };
  }

  // Which step is current; [ and ] move it. Returns the new step number (or null).
  function selectStep(view, index) {
    if (!view || !view.nodes.length) return null;
    index = Math.max(0, Math.min(view.nodes.length - 1, index));
    view.nodes.forEach(function (n) { n.classList.remove('current'); });
    var n = view.nodes[index];
    n.classList.add('current');
    view.current = index;
    if (n.scrollIntoView) n.scrollIntoView({ block: 'center' });
    return view.steps[index].first;
  }
  function stepIndexOf(view, stepNo) {
    for (var i = 0; i < view.steps.length; i++) if (view.steps[i].last >= stepNo) return i;
    return view.steps.length - 1;
  }
  function parseHash() {
    var out = {};
    String(location.hash || '').replace(/^#/, '').split('&').forEach(function (kv) {
      var i = kv.indexOf('=');
      if (i > 0) { try { out[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1)); } catch (err) { /* a malformed link opens nothing */ } }
    });
    return out;
  }
  function setHash(h) {
    var s = Object.keys(h).filter(function (k) { return h[k] !== undefined && h[k] !== null; }).map(function (k) { return k + '=' + encodeURIComponent(h[k]); }).join('&');
    if (history.replaceState) history.replaceState(null, '', s ? '#' + s : location.pathname + location.search);
  }
`;
