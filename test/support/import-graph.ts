// The graph of relative imports between a folder's source files, and its cycles: a tiny madge.
// Every edge counts, `import type` included: a type-only circle still ties two modules together
// (and turns into a runtime one as soon as a value crosses it). Each edge also says whether it
// carries only types, for the folder table of ARCHITECTURE.md (test/unit/architecture/).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { defined } from './defined.ts';

const SOURCE = /\.(?:ts|mts|cts|mjs|cjs|js)$/;

/** One import of a module: its specifier, and whether it brings types only (nothing loads at run time). */
export interface ImportRef {
  spec: string;
  typeOnly: boolean;
}

/** `import type …`, `export type …` (not `import type from`, a default import named "type"). */
const TYPE_CLAUSE = /^type(?:\s*[{*]|\s+[A-Za-z_$][\w$]*$)/;

export type ImportGraph = Map<string, Set<string>>;
/** file -> file it imports -> `type` when every import between them is type-only, else `value`. */
export type ImportEdges = Map<string, Map<string, 'type' | 'value'>>;

/** Every source file under `root` (declaration files aside) -> the files under `root` it imports. */
export function importGraph(root: string): ImportGraph {
  return new Map([...importEdges(root)].map(([file, deps]) => [file, new Set(deps.keys())]));
}

/** Every source file under `root` -> the files under `root` it imports, each with its kind. */
export function importEdges(root: string): ImportEdges {
  const edges: ImportEdges = new Map();
  for (const file of sourceFiles(root)) {
    const deps = new Map<string, 'type' | 'value'>();
    for (const { spec, typeOnly } of importsOf(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = resolve(path.resolve(path.dirname(file), spec));
      if (target) deps.set(target, typeOnly && deps.get(target) !== 'value' ? 'type' : 'value');
    }
    edges.set(file, deps);
  }
  return edges;
}

/** The relative-or-not specifiers a module imports, comments removed first. */
export function specifiers(text: string): string[] {
  return importsOf(text).map((i) => i.spec);
}

/**
 * Every import of a module, comments removed first. Type-only: `import type`, `export type … from`,
 * `typeof import('…')`. `import { type A }` is not: under verbatimModuleSyntax the module still loads.
 */
export function importsOf(text: string): ImportRef[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  const out: ImportRef[] = [];
  // import … from '…' / export … from '…'
  for (const m of code.matchAll(/(?:^|[\s;])(?:import|export)\s([^'"`;]*?)\sfrom\s*['"]([^'"]+)['"]/g)) {
    out.push({ spec: m[2], typeOnly: TYPE_CLAUSE.test(m[1].trim()) });
  }
  // import '…' (for its side effects)
  for (const m of code.matchAll(/(?:^|[\s;])import\s*['"]([^'"]+)['"]/g)) out.push({ spec: m[1], typeOnly: false });
  // import('…'): a value, unless it names a type (`typeof import('…')`)
  for (const m of code.matchAll(/(\btypeof\s+)?\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g))
    out.push({ spec: m[2], typeOnly: !!m[1] });
  for (const m of code.matchAll(/\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push({ spec: m[1], typeOnly: false });
  return out;
}

/** Strongly connected groups of more than one file (or a file importing itself), each sorted. */
export function importCycles(graph: ImportGraph): string[][] {
  // Tarjan's algorithm.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(defined(low.get(v)), defined(low.get(w))));
      } else if (onStack.has(w)) low.set(v, Math.min(defined(low.get(v)), defined(index.get(w))));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = defined(stack.pop());
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || graph.get(v)?.has(v)) cycles.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

/** Every source file under `dir`, declaration files aside. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(p));
    else if (SOURCE.test(entry.name) && !/\.d\.[mc]?ts$/.test(entry.name)) out.push(p);
  }
  return out;
}

/** `./x.ts`, `./x.js` written for `./x.ts`, `./x` and `./x/index.ts` to a file, if there is one. */
function resolve(abs: string): string | undefined {
  const isFile = (p: string) => existsSync(p) && statSync(p).isFile();
  const stem = abs.replace(/\.(?:[mc]?js)$/, '');
  const candidates = [
    abs,
    ...['.ts', '.mts', '.cts', '.mjs', '.cjs', '.js'].map((e) => stem + e),
    path.join(abs, 'index.ts'),
  ];
  return candidates.find(isFile);
}

/** The folder of a file under `src`: `agents` for src/agents/…; `(root)` for src/*.ts but `index.ts`, the public API. */
export function folderOf(file: string, src: string): string {
  const parts = path.relative(src, file).split(path.sep);
  if (parts.length > 1) return parts[0];
  return parts[0] === 'index.ts' ? 'index.ts' : '(root)';
}

/** One folder's imports of another: `value` if any file imports a value, and the imports that make it so. */
export interface FolderEdge {
  kind: 'type' | 'value';
  /** [importing file, imported file], relative to the repository, sorted: the value imports, or (all types) every import. */
  imports: Array<[string, string]>;
}

/** The import graph of `src` folded to folders: folder -> folder it imports -> edge. Every folder with a source file is a key. */
export function folderEdges(src: string, repo = path.dirname(src)): Map<string, Map<string, FolderEdge>> {
  const out = new Map<string, Map<string, FolderEdge>>();
  const rel = (f: string) => path.relative(repo, f).split(path.sep).join('/');
  const edges = importEdges(src);
  for (const file of [...edges.keys()].sort()) {
    const from = folderOf(file, src);
    const row = out.get(from) ?? new Map<string, FolderEdge>();
    out.set(from, row);
    for (const [target, kind] of [...(edges.get(file) ?? [])].sort()) {
      const to = folderOf(target, src);
      if (to === from) continue;
      const edge = row.get(to);
      const pair: [string, string] = [rel(file), rel(target)];
      if (!edge) row.set(to, { kind, imports: [pair] });
      else if (kind === edge.kind) edge.imports.push(pair);
      else if (kind === 'value') row.set(to, { kind, imports: [pair] });
    }
  }
  return out;
}
