// No module under src/ imports itself through others: a circle makes load order decide which side
// sees the other half-initialised, and ties modules that should be separable.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { importCycles, importGraph, specifiers } from '../../support/import-graph.ts';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));
const tmp = mkdtempSync(path.join(tmpdir(), 'benchrig-cycles-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function project(name: string, files: Record<string, string>): string {
  const dir = path.join(tmp, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

describe('import cycles', () => {
  it('src/ has none (type-only imports count)', () => {
    const graph = importGraph(SRC);
    expect(graph.size).toBeGreaterThan(100); // the walk found the sources
    const cycles = importCycles(graph).map((c) => c.map((f) => path.relative(SRC, f)).join(' <-> '));
    expect(cycles).toEqual([]);
  });

  it('finds a circle made by a type-only import, across folders, written with .js or no extension', () => {
    const dir = project('circle', {
      'a/read.ts': "import { readX } from '../b/x.js';\nexport type Row = { n: number };\n",
      'b/x.ts': "import type {\n  Row,\n} from '../a/read';\nexport const readX = (): Row[] => [];\n",
      'c/free.ts': "import { readX } from '../b/x.ts';\n// import { z } from '../c/free.ts'\n",
    });
    const cycles = importCycles(importGraph(dir)).map((c) => c.map((f) => path.relative(dir, f)));
    expect(cycles).toEqual([['a/read.ts', 'b/x.ts']]);
  });

  it('finds one through export-from, dynamic import() and require(); not through comments', () => {
    const dir = project('kinds', {
      'one.ts': "export * from './two.ts';\n",
      'two.ts': "export const f = () => import('./three.mjs');\n",
      'three.mjs': "import './four.cjs';\n",
      'four.cjs': "/* require('./five.ts') */ const one = require('./one.ts');\n",
      'five.ts': "import { f } from './one.ts';\n",
    });
    const cycles = importCycles(importGraph(dir)).map((c) => c.map((f) => path.relative(dir, f)));
    expect(cycles).toEqual([['four.cjs', 'one.ts', 'three.mjs', 'two.ts']]);
  });

  it('reads the specifiers of every import form', () => {
    const text = [
      "import a from './a.ts';",
      "import type { B } from './b.ts';",
      "export { c } from './c.ts';",
      "import './d.ts';",
      "const e = await import('./e.ts');",
      "const url = 'https://example.com/x'; import { f } from './f.ts';",
    ].join('\n');
    expect(specifiers(text)).toEqual(
      expect.arrayContaining(['./a.ts', './b.ts', './c.ts', './d.ts', './e.ts', './f.ts']),
    );
  });
});
