// Which files a patch touches (docs/swebench.md#eval-scripts): the test files an eval script resets,
// and the test directives the official Python layout passes to the test command.
import { NON_TEST_EXTS } from './constants.ts';

interface FileDiff {
  source: string;
  target: string;
}

const HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/** The file diffs of a unified or git diff, in order; hunk bodies are skipped by their line counts. */
function fileDiffs(patch: string): FileDiff[] {
  const files: FileDiff[] = [];
  let current: FileDiff | null = null;
  let gitHeader = false; // the current file began with `diff --git`: its `---` line belongs to it
  const lines = patch.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    const git = /^diff --git a\/(.*) b\/(.*)$/.exec(line);
    if (git) {
      current = { source: `a/${git[1] ?? ''}`, target: `b/${git[2] ?? ''}` };
      files.push(current);
      gitHeader = true;
    } else if (line.startsWith('new file mode') && current) current.source = '/dev/null';
    else if (line.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ ')) {
      const source = line.slice(4).split('\t')[0] ?? '';
      const target = (lines[i + 1] ?? '').slice(4).split('\t')[0] ?? '';
      if (!current || !gitHeader) files.push((current = { source, target }));
      else Object.assign(current, { source, target });
      gitHeader = false;
      i += 1;
    } else {
      const hunk = HUNK.exec(line);
      if (hunk) i = skipHunk(lines, i, Number(hunk[1] ?? 1), Number(hunk[2] ?? 1));
    }
  }
  return files;
}

/** The index of a hunk's last line: `old` lines of context or removal, `added` of context or addition. */
function skipHunk(lines: string[], at: number, old: number, added: number): number {
  let i = at;
  while (old > 0 || added > 0) {
    const l = lines[i + 1];
    if (l === undefined) break;
    i += 1;
    if (l.startsWith('\\')) continue; // "\ No newline at end of file"
    if (l.startsWith('-')) old -= 1;
    else if (l.startsWith('+')) added -= 1;
    else {
      old -= 1;
      added -= 1;
    }
  }
  return i;
}

/** Files the patch changes that existed before it (paths without `a/`): what a reset checks out. */
export function modifiedFiles(patch: string): string[] {
  return fileDiffs(patch)
    .map((f) => f.source)
    .filter((s) => s !== '/dev/null' && s.startsWith('a/'))
    .map((s) => s.slice(2));
}

/** Each file's path as unidiff's PatchSet names it: the target when new or renamed, without `a/` or `b/`. */
export function patchPaths(patch: string): string[] {
  return fileDiffs(patch).map(({ source, target }) => {
    const path =
      source === '/dev/null' || (target !== '/dev/null' && source.slice(2) !== target.slice(2)) ? target : source;
    return path.startsWith('a/') || path.startsWith('b/') ? path.slice(2) : path;
  });
}

/** The official test directives: files of the test patch but data files; Django's as dotted modules. */
export function testDirectives(testPatch: string, repo: string): string[] {
  const files = [...testPatch.matchAll(/diff --git a\/[^\n]* b\/([^\n]*)/g)].map((m) => m[1] ?? '');
  const tests = files.filter((f) => !NON_TEST_EXTS.some((ext) => f.endsWith(ext)));
  if (repo !== 'django/django') return tests;
  return tests.map((f) => {
    const noExt = f.endsWith('.py') ? f.slice(0, -3) : f;
    return (noExt.startsWith('tests/') ? noExt.slice('tests/'.length) : noExt).replaceAll('/', '.');
  });
}
