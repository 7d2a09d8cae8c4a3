// The comparison page's script: run summaries with the paired difference, a pass-rate chart, the
// paged tasks x runs matrix with its filters, and the trial page of a clicked cell (deep link
// #run=<i>&trial=<task-id>&step=<n>; j/k move down the matrix in the same run).
import { mountChart, rateBars } from './charts.ts';
import { append, attr, byId, el, pageData, pct, secs, usd } from './dom.ts';
import { type Column, Table } from './table.ts';
import { comparable, renderAnswers } from './compare-answers.ts';
import { parseHash, renderTrial, selectStep, setHash, stepIndexOf, stepKeys, type TrialView } from './trial.ts';
import type { CompareData, MatrixCell, MatrixRow, PageTrial } from './types.ts';

const data = pageData<CompareData>();
const MX = data.matrix;
const runs = MX.runs;
const rows = MX.rows;
const PAGE = data.page_size || 200;
const byRun = data.trials.map((list) => {
  const m: Record<string, PageTrial> = {};
  for (const t of list) m[t.task_id] = t;
  return m;
});
const STATE: Record<string, { sym: string; text: string }> = {
  passing: { sym: '\u2713', text: 'pass' },
  failing: { sym: '\u2717', text: 'fail' },
  unanswered: { sym: '!', text: 'no answer' },
  not_graded: { sym: '?', text: 'not graded' },
  absent: { sym: '\u2013', text: 'absent' },
};
const STATE_MEANING: Record<string, string> = {
  passing: 'every gradable trial passed',
  failing: 'a gradable trial failed',
  unanswered: 'every trial AGENT_ERROR or TIMEOUT',
  not_graded: 'no gradable trial',
  absent: 'not in this run',
};
/** Sort order of a cell: by its state, absent last. */
const STATE_RANK: Record<string, number> = { passing: 0, failing: 1, unanswered: 2, not_graded: 3 };

const signedPts = (x: number | null | undefined): string =>
  x === null || x === undefined ? 'n/a' : (x >= 0 ? '+' : '') + (x * 100).toFixed(1) + ' pts';

(function summary() {
  const t = el('table', 'runs-table');
  const heads = [
    'run',
    'pass rate (95% CI)',
    'passed',
    'cost',
    'tokens in / out',
    'time',
    'gate',
    'pass rate vs baseline, paired over tasks',
  ];
  t.appendChild(
    el(
      'thead',
      null,
      el(
        'tr',
        null,
        heads.map((h, i) => el('th', i >= 1 && i <= 5 ? 'num' : null, h)),
      ),
    ),
  );
  const tb = el('tbody');
  runs.forEach((r, i) => {
    const d = MX.diffs[i];
    const diff =
      i === 0
        ? [el('b', null, 'baseline')]
        : !d || d.n === 0
          ? ['no task graded in both']
          : [
              el('b', null, signedPts(d.diff)),
              d.ci95
                ? ' (95% CI ' + signedPts(d.ci95[0]) + ' to ' + signedPts(d.ci95[1]) + ')'
                : ' (one task: no interval)',
              el('div', 'note', 'over ' + d.n + ' task(s) graded in both'),
            ];
    const ci = r.pass_rate_ci95;
    const tr = el('tr', null, [
      el('td', null, [
        el('b', null, r.label),
        r.note ? el('div', 'note run-note', r.note) : null,
        el('div', 'note', r.dir),
        el('div', 'note', 'started ' + r.started_at + ' \u00b7 ' + r.status),
        r.agent_sha256
          ? el('div', 'note', 'agent ' + r.agent_module + ' \u00b7 sha256 ' + r.agent_sha256.slice(0, 12))
          : null,
      ]),
      el('td', 'num', [
        el('b', null, pct(r.pass_rate)),
        el('div', 'note', ci ? pct(ci[0]) + '\u2013' + pct(ci[1]) : 'no interval'),
      ]),
      el('td', 'num', r.n_passed + '/' + r.n_gradable),
      el('td', 'num', r.cost_usd === null ? 'n/a' : usd(r.cost_usd)),
      el('td', 'num', r.tokens.input + ' / ' + r.tokens.output),
      el('td', 'num', r.duration_s === null ? 'n/a' : secs(r.duration_s)),
      el('td', 'note', r.gate),
      el('td', 'diff-cell', diff),
    ]);
    attr(tr, 'data-run', i);
    attr(tr, 'data-pass-rate', r.pass_rate);
    if (d) {
      attr(tr, 'data-diff', d.diff);
      attr(tr, 'data-diff-low', d.ci95 ? d.ci95[0] : null);
      attr(tr, 'data-diff-high', d.ci95 ? d.ci95[1] : null);
      attr(tr, 'data-diff-n', d.n);
    }
    tb.appendChild(tr);
  });
  t.appendChild(tb);
  byId('runs-summary').appendChild(t);
  const bars = runs.map((r, i) => {
    const ci = r.pass_rate_ci95;
    return {
      label: r.label,
      id: i,
      rate: r.pass_rate,
      low: ci ? ci[0] : null,
      high: ci ? ci[1] : null,
      note: r.n_passed + '/' + r.n_gradable,
    };
  });
  mountChart(
    byId('charts'),
    'chart-runs',
    'pass rate per run with its 95% interval',
    rateBars(bars, 'pass rate per run'),
  );
  const counts: Record<string, number> = { differing: 0, regressions: 0, fixed: 0 };
  for (const r of rows) {
    if (r.differing) counts.differing++;
    if (r.regression) counts.regressions++;
    if (r.fixed) counts.fixed++;
  }
  for (const b of document.querySelectorAll('#matrix-filters button')) {
    const k = b.getAttribute('data-filter');
    b.textContent = String(b.textContent) + ' (' + (k === 'all' ? rows.length : counts[String(k)]) + ')';
  }
  const legend = byId('legend');
  for (const s of ['passing', 'failing', 'unanswered', 'not_graded', 'absent']) {
    append(
      legend,
      el('span', null, [el('span', 'sw c-' + s, STATE[s].sym + ' ' + STATE[s].text), ' ' + STATE_MEANING[s]]),
    );
  }
  append(
    legend,
    el('span', null, 'cells show passed/gradable when a task ran more than once; click a cell to open its trial'),
  );
})();

// ---- the matrix
let filter = 'all';
let q = '';
for (const r of rows) r._q = r.names.join(' ').toLowerCase();

function cellText(c: MatrixCell | null | undefined): string {
  if (!c) return STATE.absent.sym + ' ' + STATE.absent.text;
  const s = STATE[c.state] || { sym: '?', text: c.state };
  return s.sym + ' ' + (c.trials > 1 ? c.passed + '/' + c.gradable : s.text);
}

/** A cell's cost line (the sum over its trials), when it has one. */
const cellCost = (c: MatrixCell | null | undefined) =>
  c && typeof c.cost_usd === 'number' ? el('div', 'note cell-cost', usd(c.cost_usd)) : null;

const columns: Array<Column<MatrixRow>> = [
  {
    key: 'task',
    label: 'task',
    get: (r) => r.sample_id,
    render: (r) => [
      el('span', 'mono', r.sample_id),
      r.names.length > 1 ? el('div', 'note', 'also named ' + r.names.slice(1).join(', ')) : null,
      r.regression ? el('span', 'tag', 'regression') : null,
      r.fixed ? el('span', 'tag', 'fixed') : null,
      comparable(r, byRun) ? el('button', 'answers', 'answers side by side') : null,
    ],
  },
];
runs.forEach((run, i) => {
  columns.push({
    key: 'run' + i,
    label: run.label,
    cls: 'cell',
    get: (r) => {
      const c = r.cells[i];
      return c ? STATE_RANK[c.state] : 4;
    },
    render: (r, td) => {
      const c = r.cells[i];
      td.className = 'cell c-' + (c ? c.state : 'absent');
      attr(td, 'data-run', i);
      attr(td, 'data-state', c ? c.state : 'absent');
      td.title =
        run.label +
        ': ' +
        (c
          ? Object.keys(c.statuses)
              .map((s) => s + ' ' + c.statuses[s])
              .join(', ')
          : 'absent');
      return [cellText(c), cellCost(c)];
    },
  });
});

const matrix = new Table<MatrixRow>({
  id: 'matrix',
  cls: 'matrix',
  rows: () => rows,
  sort: 'task',
  pageSize: PAGE,
  rowId: (r) => r.input_hash + '|' + r.sample_id,
  filter: (r) => {
    if (filter === 'differing' && !r.differing) return false;
    if (filter === 'regressions' && !r.regression) return false;
    if (filter === 'fixed' && !r.fixed) return false;
    return !q || (r._q ?? '').indexOf(q) >= 0;
  },
  columns,
  onClick: (r, _tr, ev) => {
    if (ev.target instanceof Element && ev.target.closest('button.answers')) return openAnswers(r);
    const td = ev.target instanceof Element ? ev.target.closest('td.cell') : null;
    if (!td) return;
    const i = Number(td.getAttribute('data-run'));
    const c = r.cells[i];
    if (c && c.task_ids.length) openTrial(i, pickTrial(c, i), null);
  },
});

/** The trial a cell opens: the first that did not pass is what a reader of a failing cell wants to see. */
function pickTrial(c: MatrixCell, run: number): string {
  if (c.state !== 'passing') {
    for (const id of c.task_ids) {
      const t = byRun[run][id];
      if (t && t.status !== 'PASSED') return t.task_id;
    }
  }
  return c.task_ids[0];
}

const filterButtons = Array.from(document.querySelectorAll('#matrix-filters button'));
for (const b of filterButtons) {
  b.addEventListener('click', (ev) => {
    const on = ev.currentTarget;
    filter = on instanceof Element ? String(on.getAttribute('data-filter')) : 'all';
    for (const other of filterButtons) other.classList.toggle('on', other === on);
    matrix.refresh(true);
  });
}
byId('m-search', HTMLInputElement).addEventListener('input', (ev) => {
  q = ev.target instanceof HTMLInputElement ? ev.target.value.trim().toLowerCase() : '';
  matrix.refresh(true);
});

// ---- the trial page of a cell
const detail = byId('detail');
const listParts = ['summary', 'matrix-section'];
let open: { run: number; id: string } | null = null;
/** The row whose answers are shown side by side, if any. */
let answersOf: MatrixRow | null = null;
let view: TrialView | null = null;
let listScroll = 0;

function showList(): void {
  detail.hidden = true;
  open = null;
  answersOf = null;
  view = null;
  for (const id of listParts) byId(id).hidden = false;
  setHash({});
  window.scrollTo(0, listScroll);
}

/** The task ids of a run down the matrix, in the filter and order shown: what j/k step through. */
function seq(run: number): string[] {
  const out: string[] = [];
  for (const r of matrix.rows) {
    const c = r.cells[run];
    if (c) out.push(...c.task_ids);
  }
  return out;
}

function openTrial(run: number, id: string, step: number | null): void {
  const t = byRun[run] && byRun[run][id];
  if (!t) return;
  if (open === null) listScroll = window.scrollY || 0;
  open = { run, id };
  for (const pid of listParts) byId(pid).hidden = true;
  const s = seq(run);
  const pos = s.indexOf(id);
  const label = 'of run ' + runs[run].label + ' in the matrix filter';
  const v = renderTrial(detail, t, {
    pos,
    total: s.length,
    label,
    prev: () => move(-1),
    next: () => move(1),
    close: showList,
  });
  view = v;
  const tag = el('div', 'trial-facts', 'run ' + runs[run].label + ' \u00b7 ' + runs[run].dir);
  const head = detail.firstElementChild;
  if (head) head.insertBefore(tag, head.children[1]);
  detail.hidden = false;
  window.scrollTo(0, 0);
  if (step !== null && step !== undefined && !isNaN(step))
    setHash({ run, trial: id, step: selectStep(v, stepIndexOf(v, step)) });
  else {
    v.current = -1;
    setHash({ run, trial: id });
  }
}

const rowKey = (r: MatrixRow) => r.input_hash + '|' + r.sample_id;
/** The runs of a row that kept its model calls. */
const withCalls = (r: MatrixRow) =>
  runs.map((_, i) => i).filter((i) => (r.cells[i]?.task_ids ?? []).some((id) => byRun[i][id]?.transcript));

/** Two runs' answers to a row's calls, side by side (first the first two runs that kept them). */
function openAnswers(r: MatrixRow, a?: number, b?: number): void {
  const kept = withCalls(r);
  const x = a ?? kept[0] ?? 0;
  const y = b ?? kept.find((i) => i !== x) ?? (x === 0 ? 1 : 0);
  if (open === null && answersOf === null) listScroll = window.scrollY || 0;
  open = null;
  answersOf = r;
  for (const pid of listParts) byId(pid).hidden = true;
  renderAnswers(detail, r, runs, byRun, x, y, { close: showList, pick: (i, j) => openAnswers(r, i, j) });
  detail.hidden = false;
  window.scrollTo(0, 0);
  setHash({ answers: rowKey(r), a: x, b: y });
}

function move(d: number): void {
  if (!open) return;
  const s = seq(open.run);
  const pos = s.indexOf(open.id);
  const next = pos < 0 ? 0 : pos + d;
  if (next >= 0 && next < s.length) openTrial(open.run, s[next], null);
}

function moveStep(d: number): void {
  if (!view || !view.nodes.length || !open) return;
  const i = view.current === undefined || view.current < 0 ? (d > 0 ? 0 : view.nodes.length - 1) : view.current + d;
  setHash({ run: open.run, trial: open.id, step: selectStep(view, i) });
}

stepKeys({ move, moveStep, isOpen: () => open !== null || answersOf !== null, close: showList });
matrix.refresh(true);

function fromHash(): void {
  const h = parseHash();
  const run = Number(h.run || 0);
  const row = h.answers === undefined ? undefined : rows.find((r) => rowKey(r) === h.answers);
  if (row && runs[Number(h.a)] && runs[Number(h.b)]) openAnswers(row, Number(h.a), Number(h.b));
  else if (h.trial !== undefined && byRun[run] && byRun[run][h.trial])
    openTrial(run, h.trial, h.step === undefined ? null : Number(h.step));
}
window.addEventListener('hashchange', fromHash);
fromHash();
document.body.setAttribute('data-ready', '1');
