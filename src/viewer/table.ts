// A paged, sortable, filterable table: only one page of rows is ever in the DOM.
import { append, byId, clear, el } from './dom.ts';

/** What a column sorts by (and shows, without a render). Nulls sort last. */
export type SortKey = string | number | boolean | null | undefined;

export interface Column<R> {
  key: string;
  label: string;
  num?: boolean;
  cls?: string;
  get(r: R): SortKey;
  sortValue?(r: R): SortKey;
  /** The cell's content (nodes or text); without it, get(r) as text. */
  render?(r: R, td: HTMLTableCellElement): unknown;
}

interface TableOptions<R> {
  /** The element the table and its pager go into. */
  id: string;
  rows: () => R[];
  filter?: (r: R) => boolean;
  sort: string | null;
  dir?: number;
  pageSize?: number;
  cls?: string;
  rowId?: (r: R) => string;
  columns: Array<Column<R>>;
  onClick?: (r: R, tr: HTMLTableRowElement, ev: MouseEvent) => void;
  after?: (rows: R[]) => void;
}

/** a before b (-1) or after (1) as JavaScript's < orders them (strings by code unit, numbers by value). */
const order = (x: NonNullable<SortKey>, y: NonNullable<SortKey>): number => ((x as string) < (y as string) ? -1 : 1);

export class Table<R> {
  readonly o: TableOptions<R>;
  page = 0;
  sort: string | null;
  dir: number;
  /** The rows shown, in order, after the filter: what j/k step through. */
  rows: R[] = [];
  readonly root: HTMLElement;

  constructor(opts: TableOptions<R>) {
    this.o = opts;
    this.sort = opts.sort;
    this.dir = opts.dir || 1;
    this.root = byId(opts.id);
  }

  // eslint-disable-next-line max-lines-per-function -- one render pass of the table (filter, sort, page, rows) over the table's own state; split next (issue #22 follow-up)
  refresh(resetPage: boolean): void {
    const o = this.o;
    const PAGE = o.pageSize || 200;
    if (resetPage) this.page = 0;
    const all = o.rows();
    let rows = o.filter ? all.filter(o.filter) : all.slice();
    const col = o.columns.filter((c) => c.key === this.sort)[0];
    if (col) {
      const keyed = rows.map((r, i) => ({ r, k: col.sortValue ? col.sortValue(r) : col.get(r), i }));
      keyed.sort((a, b) => {
        const x = a.k;
        const y = b.k;
        if (x === y) return a.i - b.i;
        if (x === null || x === undefined) return 1;
        if (y === null || y === undefined) return -1;
        return order(x, y) * this.dir;
      });
      rows = keyed.map((e) => e.r);
    }
    this.rows = rows;
    const pages = Math.max(1, Math.ceil(rows.length / PAGE));
    if (this.page >= pages) this.page = pages - 1;
    const start = this.page * PAGE;
    const shown = rows.slice(start, start + PAGE);
    clear(this.root);
    const table = el('table', o.cls || null);
    const head = el('tr');
    for (const c of o.columns) {
      const th = el(
        'th',
        'sortable' +
          (c.num ? ' num' : '') +
          (this.sort === c.key ? (this.dir > 0 ? ' sorted-asc' : ' sorted-desc') : ''),
        c.label,
      );
      th.setAttribute('data-col', c.key);
      th.addEventListener('click', () => {
        if (this.sort === c.key) this.dir = -this.dir;
        else {
          this.sort = c.key;
          this.dir = 1;
        }
        this.refresh(false);
      });
      head.appendChild(th);
    }
    table.appendChild(el('thead', null, head));
    const body = el('tbody');
    for (const r of shown) {
      const tr = el('tr', o.onClick ? 'clickable' : null);
      if (o.rowId) tr.setAttribute('data-id', o.rowId(r));
      for (const c of o.columns) {
        const td = el('td', (c.num ? 'num ' : '') + (c.cls || ''));
        append(td, c.render ? c.render(r, td) : c.get(r));
        tr.appendChild(td);
      }
      const onClick = o.onClick;
      if (onClick) tr.addEventListener('click', (ev) => onClick(r, tr, ev));
      body.appendChild(tr);
    }
    table.appendChild(body);
    const pager = el('div', 'pager');
    const prev = el('button', null, 'previous');
    const next = el('button', null, 'next');
    prev.disabled = this.page === 0;
    next.disabled = this.page >= pages - 1;
    prev.addEventListener('click', () => {
      this.page--;
      this.refresh(false);
    });
    next.addEventListener('click', () => {
      this.page++;
      this.refresh(false);
    });
    const count = el(
      'span',
      'count',
      rows.length === 0
        ? 'no rows match'
        : 'showing ' +
            (start + 1) +
            '\u2013' +
            (start + shown.length) +
            ' of ' +
            rows.length +
            (rows.length !== all.length ? ' (filtered from ' + all.length + ')' : ''),
    );
    append(pager, [prev, next, count, el('span', null, 'page ' + (this.page + 1) + ' of ' + pages)]);
    this.root.appendChild(table);
    this.root.appendChild(pager);
    if (o.after) o.after(rows);
  }

  /** Turns to the page that holds `row` (when it is in the filter). */
  showRow(row: R): void {
    const i = this.rows.indexOf(row);
    const PAGE = this.o.pageSize || 200;
    if (i >= 0 && Math.floor(i / PAGE) !== this.page) {
      this.page = Math.floor(i / PAGE);
      this.refresh(false);
    }
  }
}
