// The graph of relative imports between a folder's source files, and its cycles: a tiny madge.
// Every edge counts, `import type` included: a type-only circle still ties two modules together
// (and turns into a runtime one as soon as a value crosses it).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const SOURCE = /\.(?:ts|mts|cts|mjs|cjs|js)$/;
// import … from '…' / export … from '…' / import '…' / import('…') / require('…')
const SPECIFIERS = [
  /(?:^|[\s;])(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]/g,
  /(?:^|[\s;])import\s*['"]([^'"]+)['"]/g,
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
];

export type ImportGraph = Map<string, Set<string>>;

/** Every source file under `root` (declaration files aside) -> the files under `root` it imports. */
export function importGraph(root: string): ImportGraph {
  const files = walk(root);
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const deps = new Set<string>();
    for (const spec of specifiers(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = resolve(path.resolve(path.dirname(file), spec));
      if (target) deps.add(target);
    }
    graph.set(file, deps);
  }
  return graph;
}

/** The relative-or-not specifiers a module imports, comments removed first. */
export function specifiers(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  const out: string[] = [];
  for (const re of SPECIFIERS) for (const m of code.matchAll(re)) out.push(m[1]);
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
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || graph.get(v)?.has(v)) cycles.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(p));
    else if (SOURCE.test(entry.name) && !/\.d\.[mc]?ts$/.test(entry.name)) out.push(p);
  }
  return out;
}

/** `./x.ts`, `./x.js` written for `./x.ts`, `./x` and `./x/index.ts` to a file, if there is one. */
function resolve(abs: string): string | undefined {
  const isFile = (p: string) => existsSync(p) && statSync(p).isFile();
  const stem = abs.replace(/\.(?:[mc]?js)$/, '');
  const candidates = [abs, ...['.ts', '.mts', '.cts', '.mjs', '.cjs', '.js'].map((e) => stem + e), path.join(abs, 'index.ts')];
  return candidates.find(isFile);
}
