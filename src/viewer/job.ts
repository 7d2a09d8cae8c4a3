// A job's page (docs/running.md#jobs): each benchmark's cells sort by a click on a column's head, and
// two cells picked show the tasks that flip between them (pass in one, not in the other).
import { byId, clear, el, pageData } from './dom.ts';

interface JobPageBenchmark {
  name: string;
  cells: Array<{ id: string; label: string }>;
  matrix: Array<{ sample_id: string; states: Array<string | null>; links: Array<string | null> }>;
}

const data = pageData<{ benchmarks: JobPageBenchmark[] }>();

/** Sorts a table's body by the clicked column (numbers by `data-v`), again to reverse. */
function sortable(table: HTMLTableElement): void {
  const heads = table.querySelectorAll('thead th');
  heads.forEach((th, col) => {
    th.addEventListener('click', () => {
      const body = table.tBodies[0];
      const rows = Array.from(body.rows);
      const dir = th.getAttribute('data-dir') === 'asc' ? -1 : 1;
      heads.forEach((h) => h.removeAttribute('data-dir'));
      th.setAttribute('data-dir', dir === 1 ? 'asc' : 'desc');
      const key = (r: HTMLTableRowElement) => {
        const c = r.cells[col];
        const v = c.getAttribute('data-v');
        return v !== null && v !== '' ? Number(v) : (c.textContent ?? '');
      };
      rows.sort((a, b) => {
        const x = key(a);
        const y = key(b);
        return (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))) * dir;
      });
      for (const r of rows) body.appendChild(r);
    });
  });
}

for (const t of Array.from(document.querySelectorAll('table.job-cells'))) sortable(t as HTMLTableElement);

/** The two pickers of a benchmark and the list of tasks that flip between the cells they name. */
function flips(b: JobPageBenchmark, i: number): void {
  const box = byId(`flips-${i}`);
  const pick = (which: number) => {
    const s = el(
      'select',
      null,
      b.cells.map((c, k) => Object.assign(el('option', null, c.label), { value: String(k) })),
    );
    s.id = `pick-${i}-${which}`;
    s.value = String(Math.min(which, b.cells.length - 1));
    return s;
  };
  const a = pick(0);
  const c = pick(1);
  const out = el('ul', 'flips');
  out.id = `flips-list-${i}`;
  const show = () => {
    clear(out);
    const x = Number(a.value);
    const y = Number(c.value);
    for (const row of b.matrix) {
      const px = row.states[x] === 'passing';
      const py = row.states[y] === 'passing';
      if (px === py || row.states[x] === null || row.states[y] === null) continue;
      const loser = px ? y : x;
      const link = row.links[loser];
      const text = `${row.sample_id}: passes with ${b.cells[px ? x : y].label}, not with ${b.cells[loser].label}`;
      const item = el('li');
      if (link) {
        const anchor = el('a', null, text);
        anchor.href = link;
        item.appendChild(anchor);
      } else item.textContent = text;
      out.appendChild(item);
    }
    if (!out.firstChild) out.appendChild(el('li', 'note', 'no task flips between these two'));
  };
  a.addEventListener('change', show);
  c.addEventListener('change', show);
  box.appendChild(el('p', null, ['compare ', a, ' with ', c]));
  box.appendChild(out);
  show();
}

data.benchmarks.forEach(flips);
document.body.setAttribute('data-ready', '1');
