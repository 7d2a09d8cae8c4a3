// report.html's script: the charts of the run, the trial and task tables with their filters, and
// the trial page with keyboard stepping and deep links (#trial=<task-id>&step=<n>).
import { curves } from './chart-lines.ts';
import { histogram, mountChart, rateBars, statusBar } from './charts.ts';
import { badge, byId, FAILING, fmt, option, pageData, pct, secs, usd } from './dom.ts';
import { Table } from './table.ts';
import { parseHash, renderTrial, selectStep, setHash, stepIndexOf, stepKeys, type TrialView } from './trial.ts';
import type { CheckVerdict, PageTrial, ReportData, ReportTask } from './types.ts';

const data = pageData<ReportData>();
const trials = data.trials;
const R = data.report;
const M = R.metrics || {};
const PAGE = data.page_size || 200;

// ---- pictures of the run
(function drawCharts() {
  const box = document.getElementById('charts');
  if (!box) return;
  const ci = M.pass_rate_ci95;
  const passRate = {
    label: 'pass rate',
    rate: M.pass_rate,
    low: ci ? ci[0] : null,
    high: ci ? ci[1] : null,
    note: M.n_passed + '/' + M.n_gradable,
  };
  mountChart(
    box,
    'chart-pass-rate',
    'pass rate with its 95% interval',
    rateBars([passRate], 'pass rate'),
    ci
      ? 'Wilson 95% interval ' + pct(ci[0]) + '\u2013' + pct(ci[1]) + ' over ' + M.n_gradable + ' gradable trial(s)'
      : 'nothing gradable',
  );
  mountChart(box, 'chart-status', 'trial statuses', statusBar(M.status_counts || {}));
  const checks = R.checks || [];
  if (checks.length) {
    const rows = checks.map((c) => {
      const passed = c.pass_rate === null ? 0 : Math.round(c.pass_rate * c.n_gradable);
      return { label: c.name, rate: c.pass_rate, note: passed + '/' + c.n_gradable };
    });
    mountChart(box, 'chart-checks', 'pass rate per check', rateBars(rows, 'pass rate per check'));
  }
  const times: number[] = [];
  for (const t of trials) if (typeof t.execution_time_s === 'number') times.push(t.execution_time_s);
  const ts = M.execution_time_s || {};
  mountChart(
    box,
    'chart-durations',
    'trial durations',
    histogram(times, ts.p50, ts.p95),
    'p50 ' + secs(ts.p50) + ' \u00b7 p95 ' + secs(ts.p95) + ' \u00b7 max ' + secs(ts.max),
  );
  if (R.trials > 1 && M.pass_at && Object.keys(M.pass_at).length) {
    const title = 'pass@k and pass^k over k (' + R.trials + ' trials per task)';
    mountChart(box, 'chart-pass-k', title, curves(M.pass_at, M.pass_hat || {}));
  }
})();

// ---- filters
const f = { status: '', check: '', verdict: 'failed', q: '', sample: null as string | null };
const statusSel = byId('f-status', HTMLSelectElement);
const checkSel = byId('f-check', HTMLSelectElement);
const verdictSel = byId('f-verdict', HTMLSelectElement);
const search = byId('f-search', HTMLInputElement);
const flakyOnly = byId('f-flaky', HTMLInputElement);
const counts: Record<string, number> = {};
for (const t of trials) counts[t.status] = (counts[t.status] || 0) + 1;
statusSel.appendChild(option('', 'any status (' + trials.length + ')'));
statusSel.appendChild(option('FAILING', 'failing: FAILED, TIMEOUT, AGENT_ERROR'));
for (const s of Object.keys(counts).sort()) statusSel.appendChild(option(s, s + ' (' + counts[s] + ')'));
checkSel.appendChild(option('', 'any check'));
for (const c of R.checks || []) checkSel.appendChild(option(c.name, c.name + ' (' + c.type + ')'));

function checkOf(t: PageTrial, name: string): CheckVerdict | null {
  for (const c of t.checks) if (c.name === name) return c;
  return null;
}
// lower-cased search text, made once per trial (10,000 trials filter on every keystroke)
for (const t of trials) t._q = (t.task_id + ' ' + t.sample_id + ' ' + t.reason).toLowerCase();

function trialFilter(t: PageTrial): boolean {
  if (f.sample !== null && t.sample_id !== f.sample) return false;
  if (f.status === 'FAILING' ? !FAILING[t.status] : f.status && t.status !== f.status) return false;
  if (f.check) {
    const c = checkOf(t, f.check);
    if (!c) return false;
    const want =
      f.verdict === 'passed' ? true : f.verdict === 'failed' ? false : f.verdict === 'ungradable' ? null : undefined;
    if (want !== undefined && c.passed !== want) return false;
  }
  if (f.q && (t._q ?? '').indexOf(f.q.toLowerCase()) < 0) return false;
  return true;
}

/** A trial's cost from its prices (docs/agents.md#cost); null when its calls had none. */
const trialCost = (t: PageTrial): number | null =>
  typeof t.metadata?.cost_usd === 'number' ? t.metadata.cost_usd : null;

const trialTable = new Table<PageTrial>({
  id: 'trials',
  rows: () => trials,
  filter: trialFilter,
  sort: 'task',
  pageSize: PAGE,
  rowId: (t) => t.task_id,
  columns: [
    { key: 'task', label: 'task', get: (t) => t.task_id },
    { key: 'sample', label: 'sample', get: (t) => t.sample_id },
    { key: 'trial', label: 'trial', num: true, get: (t) => t.trial },
    { key: 'status', label: 'status', get: (t) => t.status, render: (t) => badge(t.status) },
    { key: 'score', label: 'score', num: true, get: (t) => t.score, render: (t) => fmt(t.score, 2) },
    {
      key: 'time',
      label: 'time (s)',
      num: true,
      get: (t) => t.execution_time_s,
      render: (t) => fmt(t.execution_time_s, 1),
    },
    { key: 'cost', label: 'cost', num: true, get: (t) => trialCost(t), render: (t) => usd(trialCost(t)) },
    { key: 'reason', label: 'reason', cls: 'reason', get: (t) => t.reason },
  ],
  onClick: (t) => openTrial(t.task_id, null),
});

const taskTable = new Table<ReportTask>({
  id: 'tasks',
  rows: () => R.tasks || [],
  sort: 'sample',
  pageSize: PAGE,
  filter: (t) => !flakyOnly.checked || t.flaky,
  columns: [
    { key: 'sample', label: 'sample', get: (t) => t.sample_id },
    { key: 'passed', label: 'passed', num: true, get: (t) => t.passed },
    { key: 'gradable', label: 'gradable', num: true, get: (t) => t.gradable },
    { key: 'trials', label: 'trials', num: true, get: (t) => t.trials },
    {
      key: 'statuses',
      label: 'statuses',
      get: (t) =>
        Object.keys(t.statuses)
          .map((s) => s + ' ' + t.statuses[s])
          .join(', '),
    },
    { key: 'cost', label: 'cost', num: true, get: (t) => t.cost_usd ?? null, render: (t) => usd(t.cost_usd) },
    { key: 'flaky', label: 'flaky', get: (t) => (t.flaky ? 'flaky' : '') },
  ],
  onClick: (t) => {
    f.sample = t.sample_id;
    byId('f-sample').hidden = false;
    byId('f-sample-name').textContent = t.sample_id;
    trialTable.refresh(true);
    byId('trials-section').scrollIntoView();
  },
});

function onFilter(): void {
  f.status = statusSel.value;
  f.check = checkSel.value;
  f.verdict = verdictSel.value;
  f.q = search.value.trim();
  trialTable.refresh(true);
}
statusSel.addEventListener('change', onFilter);
checkSel.addEventListener('change', onFilter);
verdictSel.addEventListener('change', onFilter);
search.addEventListener('input', onFilter);
flakyOnly.addEventListener('change', () => taskTable.refresh(true));
byId('f-sample-clear').addEventListener('click', () => {
  f.sample = null;
  byId('f-sample').hidden = true;
  trialTable.refresh(true);
});

// ---- the trial page
const byTaskId: Record<string, PageTrial> = {};
for (const t of trials) byTaskId[t.task_id] = t;
const detail = byId('detail');
const listParts = ['summary', 'trials-section', 'tasks-section'];
let open: string | null = null;
let view: TrialView | null = null;
let listScroll = 0;

function showList(): void {
  detail.hidden = true;
  open = null;
  view = null;
  for (const id of listParts) byId(id).hidden = false;
  setHash({});
  window.scrollTo(0, listScroll);
}

function openTrial(id: string, step: number | null): void {
  const t = byTaskId[id];
  if (!t) return;
  if (open === null) listScroll = window.scrollY || 0;
  open = id;
  for (const pid of listParts) byId(pid).hidden = true;
  const rows = trialTable.rows;
  const pos = rows.indexOf(t);
  trialTable.showRow(t);
  for (const n of document.querySelectorAll('tr.selected')) n.classList.remove('selected');
  for (const tr of document.querySelectorAll('#trials tbody tr'))
    if (tr.getAttribute('data-id') === id) tr.classList.add('selected');
  const v = renderTrial(detail, t, {
    pos,
    total: rows.length,
    prev: () => move(-1),
    next: () => move(1),
    close: showList,
  });
  view = v;
  detail.hidden = false;
  window.scrollTo(0, 0);
  if (step !== null && step !== undefined && !isNaN(step))
    setHash({ trial: id, step: selectStep(v, stepIndexOf(v, step)) });
  else {
    v.current = -1;
    setHash({ trial: id });
  }
}

function move(d: number): void {
  const rows = trialTable.rows;
  if (!rows.length) return;
  const pos = open === null ? -1 : rows.indexOf(byTaskId[open]);
  const next = pos < 0 ? (d > 0 ? 0 : rows.length - 1) : pos + d;
  if (next < 0 || next >= rows.length) return;
  openTrial(rows[next].task_id, null);
}

function moveStep(d: number): void {
  if (!view || !view.nodes.length) return;
  const i = view.current === undefined || view.current < 0 ? (d > 0 ? 0 : view.nodes.length - 1) : view.current + d;
  setHash({ trial: open, step: selectStep(view, i) });
}

stepKeys({ move, moveStep, isOpen: () => open !== null, close: showList });

trialTable.refresh(true);
taskTable.refresh(true);

// ---- a large run's page holds a selection: it says so, and asks `benchrig view` for any other trial
const partial = data.partial;
const served = location.protocol === 'http:' || location.protocol === 'https:';
if (partial) {
  const note = byId('partial');
  note.hidden = false;
  byId('partial-text').textContent =
    'This page holds ' +
    partial.trials_shown +
    ' of ' +
    partial.trials +
    ' trials (every trial in order up to its size, then those that did not pass) and ' +
    partial.tasks_shown +
    ' of ' +
    partial.tasks +
    ' tasks; every trial is in the run folder: ' +
    (served
      ? 'open any by its task id here.'
      : '`benchrig view RUN_DIR` opens any by its task id, `benchrig report RUN_DIR --trial ID` prints one.');
  byId('partial-open').hidden = !served;
  byId('partial-open').addEventListener('submit', (e) => {
    e.preventDefault();
    const id = byId('partial-id', HTMLInputElement).value.trim();
    if (id) setHash({ trial: id });
  });
}

/** A trial the page does not hold, from the server that sent the page (`benchrig view`): null when none. */
async function fetchTrial(id: string): Promise<PageTrial | null> {
  if (!partial || !served) return null;
  const res = await fetch('trial.json?id=' + encodeURIComponent(id));
  if (!res.ok) return null;
  const t = (await res.json()) as PageTrial;
  if (!t || t.task_id !== id) return null;
  t._q = (t.task_id + ' ' + t.sample_id + ' ' + t.reason).toLowerCase();
  trials.push(t);
  byTaskId[id] = t;
  trialTable.refresh(false);
  return t;
}

function fromHash(): void {
  const h = parseHash();
  if (h.trial === undefined) return;
  const id = h.trial;
  const step = h.step === undefined ? null : Number(h.step);
  if (!byTaskId[id]) {
    fetchTrial(id).then(
      (t) => {
        if (t) openTrial(id, step);
        else if (partial) byId('partial-missing').textContent = 'no trial ' + id + ' in this run';
      },
      () => {
        byId('partial-missing').textContent = 'trial ' + id + ' could not be loaded';
      },
    );
    return;
  }
  if (id !== open || step === null) openTrial(id, step);
  else if (view) selectStep(view, stepIndexOf(view, step));
}
window.addEventListener('hashchange', fromHash);
fromHash();
document.body.setAttribute('data-ready', '1');
