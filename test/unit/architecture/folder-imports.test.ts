// ARCHITECTURE.md's folder table is the import graph of src/, both ways: an import between folders
// that the table does not list fails, and so does one the table lists that the code no longer has;
// types-only ([x]) and value imports are told apart as the table does.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { folderEdges, importsOf } from '../../support/import-graph.ts';
import { importsCell, parseImports, readFolderTable, tableProblems, TABLE_HEADING } from './folder-table.ts';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const SRC = path.join(REPO, 'src');
const tmp = mkdtempSync(path.join(tmpdir(), 'benchrig-folders-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function project(name: string, files: Record<string, string>): string {
  const dir = path.join(tmp, name, 'src');
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

const table = (rows: string[]) =>
  readFolderTable(
    [TABLE_HEADING, '', '| folder | job | imports |', '|---|---|---|', ...rows, '', '## Next'].join('\n'),
  );

describe("ARCHITECTURE.md's folder table", () => {
  it('is the import graph of src/ (run this test after moving an import; each line names the row to change)', () => {
    const rows = readFolderTable(readFileSync(path.join(REPO, 'ARCHITECTURE.md'), 'utf8'));
    const code = folderEdges(SRC, REPO);
    expect(code.size).toBeGreaterThan(15); // the walk found the folders
    expect(tableProblems(rows, code)).toEqual([]);
  });

  it('reads names, (root), [types only], notes in parentheses (commas inside them too) and — for none', () => {
    expect(
      parseImports(
        '(root), benchmark, sandbox (image references, build folders), report (atomic write), [config, worker]',
      ),
    ).toEqual(
      new Map([
        ['(root)', 'value'],
        ['benchmark', 'value'],
        ['sandbox', 'value'],
        ['report', 'value'],
        ['config', 'type'],
        ['worker', 'type'],
      ]),
    );
    expect(parseImports('loader, [(root), agents]')).toEqual(
      new Map([
        ['loader', 'value'],
        ['(root)', 'type'],
        ['agents', 'type'],
      ]),
    );
    expect(parseImports('—')).toEqual(new Map());
    expect(parseImports('— (nothing outside `viewer/`; read as files by `report/viewer-bundle.ts`)')).toEqual(
      new Map(),
    );
    expect(() => parseImports('config, the rest of it', 'x/')).toThrow(
      /row `x\/`: "the rest of it" is not a folder name/,
    );
    expect(() => parseImports('config, [config]', 'x/')).toThrow(/config is listed twice/);
    expect(
      importsCell(
        new Map([
          ['llm', 'value'],
          ['(root)', 'value'],
          ['sandbox', 'type'],
          ['(root)x', 'type'],
        ]),
      ),
    ).toBe('(root), llm, [(root)x, sandbox]');
  });

  it('names the edge and the row for an import the table does not allow, and for one it lists that is gone', () => {
    const src = project('both-ways', {
      'errors.ts': 'export class E {}\n',
      'index.ts': "export { run } from './run/go.ts';\nexport type { T } from './agents/types.ts';\n",
      'agents/types.ts': "import { E } from '../errors.ts';\nexport type T = E;\n",
      'agents/x.ts':
        "import { go } from '../trial/y.ts';\nimport type { T } from './types.ts';\nexport const x = go;\n",
      'trial/y.ts': "import type { T } from '../agents/types.ts';\nexport const go = (t?: T) => t;\n",
      'run/go.ts': "import { go } from '../trial/y.ts';\nexport const run = go;\n",
    });
    const rows = table([
      '| `agents/` | agents | (root), llm |',
      '| `trial/` | trials | agents |',
      '| `run/` | runs | [trial] |',
      '| `llm/` | gone | — |',
      '| `(root)` | errors | — |',
      '| `index.ts` | the API | run, [agents] |',
    ]);
    expect(tableProblems(rows, folderEdges(src))).toEqual([
      'src/agents/x.ts imports src/trial/y.ts, but ARCHITECTURE.md does not allow agents → trial: add trial to the imports of the `agents/` row',
      'ARCHITECTURE.md says agents → llm, but no file of src/agents/ imports src/llm/: remove llm from the imports of the `agents/` row',
      'src/run/go.ts imports src/trial/y.ts (a value), but ARCHITECTURE.md allows only types for run → trial: in the `run/` row, change [trial] to trial',
      'ARCHITECTURE.md says trial → agents imports values, but src/trial/ imports only types from src/agents/ (src/trial/y.ts imports src/agents/types.ts): in the `trial/` row, change agents to [agents]',
      "ARCHITECTURE.md's folder table has the row `llm/`, but src/llm/ has no source file: remove the row",
      "the `agents/` row's imports, as the code has them (keep its notes): (root), trial",
      "the `run/` row's imports, as the code has them (keep its notes): trial",
      "the `trial/` row's imports, as the code has them (keep its notes): [agents]",
    ]);
  });

  it('asks for a row for a folder it does not have, with the imports to write', () => {
    const src = project('new-folder', {
      'fresh/a.ts': "import type { E } from '../errors.ts';\nimport { b } from '../old/b.ts';\n",
      'old/b.ts': 'export const b = 1;\n',
      'errors.ts': 'export class E {}\n',
    });
    expect(tableProblems(table(['| `old/` | old | — |', '| `(root)` | errors | — |']), folderEdges(src))).toEqual([
      "src/fresh/ has no row in ARCHITECTURE.md's folder table: add the row `fresh/` | <its job> | old, [(root)]",
    ]);
  });

  it('tells a types-only import from one that loads the module', () => {
    const kinds = (text: string) => importsOf(text).map((i) => `${i.spec}:${i.typeOnly ? 'type' : 'value'}`);
    expect(
      kinds(
        [
          "import type { A } from './a.ts';",
          "import type B from './b.ts';",
          "export type { C } from './c.ts';",
          "export type * from './d.ts';",
          "import { type E } from './e.ts';", // still loads ./e.ts (verbatimModuleSyntax)
          "import typeF from './f.ts';",
          "import type from './g.ts';",
          "type H = typeof import('./h.ts');",
          "const i = await import('./i.ts');",
          "import './j.ts';",
          "export { K } from './k.ts';",
          "import type {\n  L,\n} from './l.ts';",
        ].join('\n'),
      ),
    ).toEqual([
      './a.ts:type',
      './b.ts:type',
      './c.ts:type',
      './d.ts:type',
      './e.ts:value',
      './f.ts:value',
      './g.ts:value',
      './k.ts:value',
      './l.ts:type',
      './j.ts:value',
      './h.ts:type',
      './i.ts:value',
    ]);
  });
});
