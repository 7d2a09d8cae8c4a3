// A format is a folder (ARCHITECTURE.md "Formats", issue #38): the core asks the format registry
// (src/formats/index.ts) and never names a format. Every file of the core's folders is read, comments
// included (a comment that names a format is where the next branch on its name starts), and a file
// of src/formats/ outside a format's folder names one only in the registries.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../../support/import-graph.ts';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const SRC = path.join(REPO, 'src');
/** The format names, as words of code, comments or help text. */
const NAMES = /harbor|swebench|swe-bench/i;
/** The folders that must not know a format. */
const CORE = ['run', 'trial', 'pool', 'worker', 'cli', 'agents', 'checks', 'report', 'benchmark', 'dataset', 'viewer'];
/** The registries: one line per format each. */
const REGISTRIES = new Set(['src/formats/index.ts', 'src/formats/views.ts']);

/** `file:line: text` of every line of `files` that names a format. */
function naming(files: string[]): string[] {
  return files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (NAMES.test(line) ? [`${path.relative(REPO, file)}:${i + 1}: ${line.trim()}`] : [])),
  );
}

describe('format names', () => {
  it('appear in no file of the core folders', () => {
    const files = CORE.flatMap((dir) => sourceFiles(path.join(SRC, dir)));
    expect(files.length).toBeGreaterThan(100); // the walk found the sources
    expect(naming(files)).toEqual([]);
  });

  it('appear in src/formats/ outside a format folder only in the registries', () => {
    const files = sourceFiles(path.join(SRC, 'formats')).filter((f) => {
      const rel = path.relative(SRC, f).split(path.sep);
      return rel.length === 2 && !REGISTRIES.has(`src/${rel.join('/')}`);
    });
    expect(files.length).toBeGreaterThan(1);
    expect(naming(files)).toEqual([]);
  });

  it('finds a name in a comment, in any case', () => {
    expect(naming([fileURLToPath(import.meta.url)]).length).toBeGreaterThan(0);
  });
});
