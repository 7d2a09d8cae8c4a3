// Which files a patch touches (docs/swebench.md#eval-scripts): the test files an eval script resets,
// and the test directives the official Python layout passes to the test command.
import { NON_TEST_EXTS } from './constants.ts';
import { fileDiffs } from './diff-files.ts';

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

/**
 * The official test directives: files of the test patch but data files; Django's as dotted modules.
 * Found by the official harness's own regex over the whole patch (not by fileDiffs), for its results.
 */
export function testDirectives(testPatch: string, repo: string): string[] {
  const files = [...testPatch.matchAll(/diff --git a\/[^\n]* b\/([^\n]*)/g)].map((m) => m[1] ?? '');
  const tests = files.filter((f) => !NON_TEST_EXTS.some((ext) => f.endsWith(ext)));
  if (repo !== 'django/django') return tests;
  return tests.map((f) => {
    const noExt = f.endsWith('.py') ? f.slice(0, -3) : f;
    return (noExt.startsWith('tests/') ? noExt.slice('tests/'.length) : noExt).replaceAll('/', '.');
  });
}
