// Test configuration a model patch changes (docs/swebench.md#test-configuration): files that decide
// how the tests run rather than what they test — a conftest.py, pytest's ini files and sections, a
// registered pytest plugin, a module shadowing pytest, Python's start-up hooks. The eval script resets
// only the test patch's files, so such a change can turn failures into passes, in the official harness
// too. Read from the diff alone; pure.

interface Changed {
  /** The file's paths (before and after; one when it keeps its name), without `a/` and `b/`. */
  paths: string[];
  /** The file did not exist before the patch (new, or the target of a rename). */
  isNew: boolean;
  /** Each removed or added line, with the `[section]` it sits in when the hunk shows one. */
  lines: Array<{ text: string; section: string | null }>;
}

const HEADER = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*|;.*)?$/;
const HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@ ?(.*)$/;
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

/** The files of a unified or git diff with their changed lines; hunks read by their line counts. */
function changedFiles(patch: string): Changed[] {
  const files: Changed[] = [];
  let current: Changed | null = null;
  let gitHeader = false; // the current file began with `diff --git`: its `---` line belongs to it
  const lines = patch.split('\n');
  const start = (paths: string[]): Changed => {
    const f: Changed = { paths: [...new Set(paths)], isNew: false, lines: [] };
    files.push(f);
    return f;
  };
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    const git = /^diff --git (.+?) (b\/.+|"b\/.+")$/.exec(line);
    if (git) {
      current = start([pathOf(git[1] ?? ''), pathOf(git[2] ?? '')]);
      gitHeader = true;
    } else if (current && /^(new file mode|rename to |copy to )/.test(line)) {
      current.isNew = true;
    } else if (line.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ ')) {
      const paths = [line.slice(4), (lines[i + 1] ?? '').slice(4)].map((p) => p.split('\t')[0] ?? '');
      if (!current || !gitHeader) current = start(paths.filter((p) => p !== '/dev/null').map(pathOf));
      if (paths[0] === '/dev/null') current.isNew = true;
      gitHeader = false;
      i += 1;
    } else {
      const hunk = HUNK.exec(line);
      if (hunk && current) i = readHunk(lines, i, hunk, current);
    }
  }
  return files;
}

/** Reads one hunk's lines into `f`, tracking the section; the index of its last line. */
function readHunk(lines: string[], at: number, hunk: RegExpExecArray, f: Changed): number {
  let old = Number(hunk[1] ?? 1);
  let added = Number(hunk[2] ?? 1);
  let section = HEADER.exec(hunk[3] ?? '')?.[1] ?? null;
  let i = at;
  while (old > 0 || added > 0) {
    const l = lines[i + 1];
    if (l === undefined) break;
    i += 1;
    if (l.startsWith('\\')) continue; // "\ No newline at end of file"
    const text = l.slice(1);
    const header = HEADER.exec(text)?.[1];
    if (l.startsWith('-') || l.startsWith('+')) f.lines.push({ text, section });
    if (!l.startsWith('-')) added -= 1;
    if (!l.startsWith('+')) old -= 1;
    if (header !== undefined && !l.startsWith('-')) section = header;
  }
  return i;
}

/** A diff's path without its quotes and `a/` or `b/` prefix. */
function pathOf(p: string): string {
  const bare = p.startsWith('"') && p.endsWith('"') ? p.slice(1, -1) : p;
  return bare.startsWith('a/') || bare.startsWith('b/') ? bare.slice(2) : bare;
}
