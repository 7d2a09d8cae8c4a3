// The script of `benchrig view DIR`'s run list: pick one run to open, or several to compare.
import { byId, el, pageData, pct } from './dom.ts';
import { Table } from './table.ts';
import type { IndexedRun, RunIndexData } from './types.ts';

const data = pageData<RunIndexData>();
const runs = data.runs;
const chosen: Record<string, boolean> = {};
const btn = byId('compare-selected', HTMLButtonElement);
const openBtn = byId('open-selected', HTMLButtonElement);
const search = byId('r-search', HTMLInputElement);
let q = '';
for (const r of runs)
  r._q = [r.agent, r.label ?? '', r.run_note ?? '', r.benchmark, r.name, r.status].join(' ').toLowerCase();

const chosenIds = (): string[] => Object.keys(chosen).filter((k) => chosen[k]);

function update(): void {
  const ids = chosenIds();
  btn.textContent = 'compare selected (' + ids.length + ')';
  btn.disabled = ids.length < 2;
  openBtn.disabled = ids.length !== 1;
}

const table: Table<IndexedRun> = new Table<IndexedRun>({
  id: 'runs',
  rows: () => runs,
  sort: 'started',
  dir: -1,
  rowId: (r) => String(r.i),
  filter: (r) => !q || (r._q ?? '').indexOf(q) >= 0,
  columns: [
    {
      key: 'pick',
      label: 'pick',
      get: (r) => (chosen[r.i] ? 0 : 1),
      render: (r) => {
        const c = el('input');
        c.type = 'checkbox';
        c.checked = !!chosen[r.i];
        c.setAttribute('aria-label', 'select ' + r.name);
        c.addEventListener('click', (ev) => ev.stopPropagation());
        c.addEventListener('change', () => {
          chosen[r.i] = c.checked;
          update();
        });
        return c;
      },
    },
    { key: 'agent', label: 'agent', get: (r) => r.agent },
    { key: 'benchmark', label: 'benchmark', get: (r) => r.benchmark },
    { key: 'started', label: 'date', get: (r) => r.started_at },
    {
      key: 'pass',
      label: 'pass rate',
      num: true,
      get: (r) => r.pass_rate,
      render: (r) =>
        pct(r.pass_rate) +
        (r.pass_rate_ci95 ? ' (' + pct(r.pass_rate_ci95[0]) + '\u2013' + pct(r.pass_rate_ci95[1]) + ')' : ''),
    },
    {
      key: 'trials',
      label: 'trials',
      num: true,
      get: (r) => r.trials,
      render: (r) => (r.trials === null ? '-' : String(r.trials)),
    },
    { key: 'status', label: 'status', get: (r) => r.status },
    { key: 'gate', label: 'gate', cls: 'reason', get: (r) => r.gate || '' },
    {
      key: 'label',
      label: 'label',
      get: (r) => r.label ?? '',
      render: (r) => [r.label ?? '', r.run_note ? el('div', 'note', r.run_note) : null],
    },
    {
      key: 'open',
      label: 'open',
      get: (r) => r.name,
      render: (r) => {
        const out: unknown[] = [];
        if (r.has_report) {
          const a = el('a', null, 'report');
          a.href = 'run/' + r.i + '/';
          out.push(a);
        } else out.push(el('span', 'note', r.note || 'no report'));
        const hi = el('a', null, 'history');
        hi.href = 'history/' + r.group + '/';
        out.push(' \u00b7 ', hi);
        return out;
      },
    },
  ],
  onClick: (r, _tr, ev) => {
    const t = ev.target;
    if (t instanceof Element && (t.tagName === 'A' || t.tagName === 'INPUT')) return;
    chosen[r.i] = !chosen[r.i];
    table.refresh(false);
    update();
  },
});

search.addEventListener('input', () => {
  q = search.value.trim().toLowerCase();
  table.refresh(true);
});
btn.addEventListener('click', () => {
  const ids = chosenIds()
    .map(Number)
    .sort((a, b) => String(runs[a].started_at).localeCompare(String(runs[b].started_at)));
  if (ids.length >= 2) location.href = 'compare?runs=' + ids.join(',');
});
openBtn.addEventListener('click', () => {
  const ids = chosenIds();
  if (ids.length === 1) location.href = 'run/' + ids[0] + '/';
});
table.refresh(true);
update();
document.body.setAttribute('data-ready', '1');
