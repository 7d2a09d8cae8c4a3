// Test configuration a model patch changes (docs/swebench.md#test-configuration): files that decide
// how the tests run rather than what they test — a conftest.py, pytest's ini files and sections, a
// registered pytest plugin, a module shadowing pytest, Python's start-up hooks. The eval script resets
// only the test patch's files, so such a change can turn failures into passes, in the official harness
// too. Read from the diff alone (diff-files.ts); pure.
import { barePath, fileDiffs, type Hunk } from './diff-files.ts';

interface Changed {
  /** Every path its headers name (before and after; one when it keeps its name), without quotes, `a/` and `b/`. */
  paths: string[];
  /** The file did not exist before the patch (new, or the target of a rename). */
  isNew: boolean;
  /** Each removed or added line, with the `[section]` it sits in when the hunk shows one. */
  lines: Array<{ text: string; section: string | null }>;
}

const HEADER = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*|;.*)?$/;
/** pytest's ini options (https://docs.pytest.org/en/stable/reference/reference.html#ini-options-ref) that change what runs or passes. */
const PYTEST_KEY =
  /^\s*["']?(addopts|python_files|python_classes|python_functions|testpaths|norecursedirs|filterwarnings|xfail_strict|markers|usefixtures|required_plugins|pythonpath|minversion|doctest_optionflags|empty_parameter_set_mark)["']?\s*[=:]/;
const PYTEST_SECTION: Record<string, RegExp> = {
  'setup.cfg': /^(tool:pytest|pytest)$/,
  'pyproject.toml': /^tool\s*\.\s*pytest\b/,
};
const ENTRY_POINT_FILES = new Set(['setup.py', 'setup.cfg', 'pyproject.toml', 'entry_points.txt']);
const CONFIG_FILES: Record<string, string> = {
  'pytest.ini': "pytest's configuration file",
  '.pytest.ini': "pytest's configuration file",
  'pytest.toml': "pytest's configuration file",
  '.pytest.toml': "pytest's configuration file",
  'tox.ini': 'pytest reads its [pytest] section',
  'conftest.py': 'a conftest.py: its hooks and fixtures run inside pytest and can change any outcome',
  'sitecustomize.py': 'runs at every Python start-up',
  'usercustomize.py': 'runs at every Python start-up',
};
const SHADOWS = new Set(['pytest.py', '_pytest.py', 'pytest/__init__.py', '_pytest/__init__.py']);

/** Each file of the patch that changes test configuration, as `path: why`, in the patch's order. */
export function testConfigChanges(patch: string): string[] {
  const out: string[] = [];
  for (const f of changedFiles(patch)) {
    for (const path of f.paths) {
      const why = whyFile(path, f);
      if (why === null) continue;
      out.push(`${path}: ${why}`);
      break;
    }
  }
  return out;
}

function whyFile(path: string, f: Changed): string | null {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (CONFIG_FILES[base]) return CONFIG_FILES[base];
  if (base.endsWith('.pth')) return 'a .pth file: its import lines run at every Python start-up';
  if (f.isNew && [...SHADOWS].some((s) => path === s || path.endsWith(`/${s}`)))
    return 'a new module named pytest: imported instead of the real one';
  if (ENTRY_POINT_FILES.has(base) && f.lines.some((l) => l.text.includes('pytest11')))
    return 'registers a pytest plugin (entry point group pytest11)';
  if (base.endsWith('.py') && f.lines.some((l) => /^\s*pytest_plugins\s*[=+:(]/.test(l.text)))
    return 'loads pytest plugins (pytest_plugins)';
  const section = PYTEST_SECTION[base];
  if (section) {
    const hit = f.lines.find((l) => {
      const own = HEADER.exec(l.text)?.[1];
      if (own !== undefined) return section.test(own);
      return l.section !== null ? section.test(l.section) : PYTEST_KEY.test(l.text);
    });
    if (hit) return `changes its pytest settings (${hit.section ?? hit.text.trim()})`;
  }
  return null;
}

/** The files of a diff with their removed and added lines, each with the `[section]` it sits in. */
function changedFiles(patch: string): Changed[] {
  return fileDiffs(patch).map((f) => ({
    paths: [...new Set(f.names.filter((n) => n !== '/dev/null').map(barePath))],
    isNew: f.isNew,
    lines: f.hunks.flatMap(changedLines),
  }));
}

/** A hunk's removed and added lines, the section tracked from its heading and the headers it shows. */
function changedLines(h: Hunk): Changed['lines'] {
  let section = HEADER.exec(h.heading)?.[1] ?? null;
  const out: Changed['lines'] = [];
  for (const l of h.lines) {
    const text = l.slice(1);
    if (l.startsWith('-') || l.startsWith('+')) out.push({ text, section });
    const header = HEADER.exec(text)?.[1];
    if (header !== undefined && !l.startsWith('-')) section = header;
  }
  return out;
}
