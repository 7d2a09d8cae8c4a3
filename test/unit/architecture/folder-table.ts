// ARCHITECTURE.md's table "Folders of src/ and what each imports", read, and compared both ways with
// the import graph folded to folders (test/support/import-graph.ts `folderEdges`). In the imports
// column a name is a folder of src/ (written without its slash), `(root)` is src/*.ts but index.ts,
// `[a, b]` are imports of types only, a parenthesised note after a name is a comment, `—` is none.
import type { FolderEdge } from '../../support/import-graph.ts';

export const TABLE_HEADING = '## Folders of src/ and what each imports';

export type Kind = 'type' | 'value';

export interface FolderRow {
  /** As the folder cell writes it: `agents/`, `(root)`, `index.ts`. */
  cell: string;
  imports: Map<string, Kind>;
}

/** The rows of the table, keyed by folder (`agents`, `(root)`, `index.ts`); throws naming a cell it cannot read. */
export function readFolderTable(markdown: string): Map<string, FolderRow> {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.trim() === TABLE_HEADING);
  if (start < 0) throw new Error(`ARCHITECTURE.md has no heading "${TABLE_HEADING}"`);
  const end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  const rows = lines.slice(start + 1, end < 0 ? undefined : end).filter((l) => l.trim().startsWith('|'));
  const out = new Map<string, FolderRow>();
  // rows[0] is the header, rows[1] the |---| line
  for (const line of rows.slice(2)) {
    const cells = line
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((c) => c.trim());
    if (cells.length !== 3) throw new Error(`ARCHITECTURE.md folder table: a row without 3 cells: ${line}`);
    const cell = cells[0].replace(/`/g, '');
    const folder = cell.replace(/\/$/, '');
    if (out.has(folder)) throw new Error(`ARCHITECTURE.md folder table: two rows for \`${cell}\``);
    out.set(folder, { cell, imports: parseImports(cells[2], cell) });
  }
  return out;
}

/** The imports cell: names, `[types only]`, notes in parentheses, `—` for none. */
export function parseImports(text: string, row = '?'): Map<string, Kind> {
  const out = new Map<string, Kind>();
  const cell = text.replace(/`/g, '').trim();
  if (cell.startsWith('—')) {
    if (!/^—\s*(?:\(.*\))?$/.test(cell))
      throw new Error(`ARCHITECTURE.md folder table, row \`${row}\`: after "—" only a note in parentheses: ${text}`);
    return out;
  }
  const add = (item: string, kind: Kind) => {
    const name =
      item.trim() === '(root)' || item.trim().startsWith('(root) ')
        ? '(root)'
        : item.replace(/\s*\(.*\)\s*$/s, '').trim();
    if (!/^(?:[a-z][\w-]*|\(root\)|index\.ts)$/.test(name))
      throw new Error(
        `ARCHITECTURE.md folder table, row \`${row}\`: "${item.trim()}" is not a folder name, (root) or [types]`,
      );
    if (out.has(name)) throw new Error(`ARCHITECTURE.md folder table, row \`${row}\`: ${name} is listed twice`);
    out.set(name, kind);
  };
  for (const item of splitTop(cell)) {
    const t = item.trim();
    if (t.startsWith('[')) {
      if (!t.endsWith(']'))
        throw new Error(`ARCHITECTURE.md folder table, row \`${row}\`: "${t}" opens [ without closing it`);
      for (const inner of splitTop(t.slice(1, -1))) add(inner, 'type');
    } else add(t, 'value');
  }
  return out;
}

/** Split on the commas outside () and []. */
function splitTop(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      out.push(text.slice(from, i));
      from = i + 1;
    }
  }
  out.push(text.slice(from));
  return out.filter((s) => s.trim() !== '');
}

/** How the table writes a folder's imports: values, then `[types]`, `(root)` first in each. */
export function importsCell(imports: Map<string, Kind>): string {
  const order = (a: string, b: string) => (a === '(root)' ? -1 : b === '(root)' ? 1 : a.localeCompare(b));
  const values = [...imports]
    .filter(([, k]) => k === 'value')
    .map(([n]) => n)
    .sort(order);
  const types = [...imports]
    .filter(([, k]) => k === 'type')
    .map(([n]) => n)
    .sort(order);
  const parts = [...values, ...(types.length ? [`[${types.join(', ')}]`] : [])];
  return parts.length ? parts.join(', ') : '—';
}

const arrow = (from: string, to: string) => `${from} → ${to}`;
const srcOf = (folder: string) =>
  folder === '(root)' ? 'src/*.ts' : folder === 'index.ts' ? 'src/index.ts' : `src/${folder}/`;
const cellOf = (folder: string) => (folder === '(root)' || folder === 'index.ts' ? folder : `${folder}/`);
const example = (e: FolderEdge, note = '') => {
  const more = e.imports.length > 1 ? `${e.imports.length - 1} more such import${e.imports.length > 2 ? 's' : ''}` : '';
  const parens = [note, more].filter(Boolean).join('; ');
  return `${e.imports[0][0]} imports ${e.imports[0][1]}${parens ? ` (${parens})` : ''}`;
};

/**
 * Every difference between the table and the code, each saying which row to change and how; then,
 * for every row that differs, the imports cell the code has. Empty: the table is true.
 */
export function tableProblems(table: Map<string, FolderRow>, code: Map<string, Map<string, FolderEdge>>): string[] {
  const out: string[] = [];
  const wrongRows = new Set<string>();
  for (const [folder, edges] of [...code].sort(([a], [b]) => a.localeCompare(b))) {
    const row = table.get(folder);
    if (!row) {
      out.push(
        `${srcOf(folder)} has no row in ARCHITECTURE.md's folder table: add the row \`${cellOf(folder)}\` | <its job> | ${importsCell(kinds(edges))}`,
      );
      continue;
    }
    const before = out.length;
    for (const [to, edge] of [...edges].sort(([a], [b]) => a.localeCompare(b))) {
      const listed = row.imports.get(to);
      if (!listed) {
        const what = edge.kind === 'type' ? `[${to}]` : to;
        out.push(
          `${example(edge)}, but ARCHITECTURE.md does not allow ${arrow(folder, to)}${edge.kind === 'type' ? ' (types)' : ''}: add ${what} to the imports of the \`${row.cell}\` row`,
        );
      } else if (listed === 'type' && edge.kind === 'value') {
        out.push(
          `${example(edge, 'a value')}, but ARCHITECTURE.md allows only types for ${arrow(folder, to)}: in the \`${row.cell}\` row, change [${to}] to ${to}`,
        );
      } else if (listed === 'value' && edge.kind === 'type') {
        out.push(
          `ARCHITECTURE.md says ${arrow(folder, to)} imports values, but ${srcOf(folder)} imports only types from ${srcOf(to)} (${example(edge)}): in the \`${row.cell}\` row, change ${to} to [${to}]`,
        );
      }
    }
    for (const [to, listed] of [...row.imports].sort(([a], [b]) => a.localeCompare(b))) {
      if (edges.has(to)) continue;
      const what = listed === 'type' ? `[${to}]` : to;
      out.push(
        `ARCHITECTURE.md says ${arrow(folder, to)}, but no file of ${srcOf(folder)} imports ${srcOf(to)}: remove ${what} from the imports of the \`${row.cell}\` row`,
      );
    }
    if (out.length > before) wrongRows.add(folder);
  }
  for (const [folder, row] of table) {
    if (!code.has(folder))
      out.push(
        `ARCHITECTURE.md's folder table has the row \`${row.cell}\`, but ${srcOf(folder)} has no source file: remove the row`,
      );
  }
  for (const folder of [...wrongRows].sort()) {
    out.push(
      `the \`${cellOf(folder)}\` row's imports, as the code has them (keep its notes): ${importsCell(kinds(code.get(folder) ?? new Map()))}`,
    );
  }
  return out;
}

function kinds(edges: Map<string, FolderEdge>): Map<string, Kind> {
  return new Map([...edges].map(([to, e]) => [to, e.kind]));
}
