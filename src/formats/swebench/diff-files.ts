// The files of a unified or git diff: each file's header paths and its hunks, hunks read by their line
// counts so that a body line looking like a header stays in its hunk. The one reader of patch-files.ts
// (what a reset checks out, the names unidiff gives) and test-config.ts (what a model patch changes). Pure.

interface FileDiff {
  /**
   * The old path as the diff writes it (`a/x`, `"a/x y"`, `/dev/null`): the `---` line's, else the
   * `diff --git` line's; `/dev/null` after `new file mode`.
   */
  source: string;
  /** The new path as written (`b/x`, `/dev/null`): the `+++` line's, else the `diff --git` line's. */
  target: string;
  /** Every path its headers write (`diff --git`, `---`, `+++`), as written: headers that disagree name both. */
  names: string[];
  /** It did not exist before the patch: `new file mode`, `--- /dev/null`, or the target of a rename or copy. */
  isNew: boolean;
  hunks: Hunk[];
}

export interface Hunk {
  /** What follows the `@@ … @@` ranges: the function or section the hunk sits in, when the diff shows it. */
  heading: string;
  /** Its context, removed and added lines with their first character; `\ No newline` markers left out. */
  lines: string[];
}

const HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@ ?(.*)$/;

/** The file diffs of `patch`, in order. */
export function fileDiffs(patch: string): FileDiff[] {
  const files: FileDiff[] = [];
  let current: FileDiff | null = null;
  let gitHeader = false; // the current file began with `diff --git`: its `---` line belongs to it
  const lines = patch.split('\n');
  const start = (source: string, target: string): FileDiff => {
    const f: FileDiff = { source, target, names: [source, target], isNew: false, hunks: [] };
    files.push(f);
    return f;
  };
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    const git = gitPaths(line);
    if (git) {
      current = start(...git);
      gitHeader = true;
    } else if (current && line.startsWith('new file mode')) {
      current.source = '/dev/null';
      current.isNew = true;
    } else if (current && /^(rename|copy) to /.test(line)) {
      current.isNew = true;
    } else if (line.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ ')) {
      const [source, target] = [line, lines[i + 1] ?? ''].map((l) => l.slice(4).split('\t')[0] ?? '') as [
        string,
        string,
      ];
      if (!current || !gitHeader) current = start(source, target);
      else Object.assign(current, { source, target, names: [...current.names, source, target] });
      if (source === '/dev/null') current.isNew = true;
      gitHeader = false;
      i += 1;
    } else {
      const hunk = HUNK.exec(line);
      if (hunk) i = readHunk(lines, i, hunk, current);
    }
  }
  return files;
}

/** Reads one hunk by its counts into `f` (none: skipped); the index of its last line. */
function readHunk(lines: string[], at: number, hunk: RegExpExecArray, f: FileDiff | null): number {
  let old = Number(hunk[1] ?? 1);
  let added = Number(hunk[2] ?? 1);
  const read: Hunk = { heading: hunk[3] ?? '', lines: [] };
  f?.hunks.push(read);
  let i = at;
  while (old > 0 || added > 0) {
    const l = lines[i + 1];
    if (l === undefined) break;
    i += 1;
    if (l.startsWith('\\')) continue; // "\ No newline at end of file"
    read.lines.push(l);
    if (!l.startsWith('-')) added -= 1;
    if (!l.startsWith('+')) old -= 1;
  }
  return i;
}

const QUOTED = /^"(?:[^"\\]|\\.)*"/;

/**
 * A `diff --git` line's two paths as written, the second `b/…` or `"b/…"`: a quoted path ends at its
 * closing quote; two unquoted ones are split at the last ` b/`, as unidiff splits them.
 */
function gitPaths(line: string): [string, string] | null {
  if (!line.startsWith('diff --git ')) return null;
  const rest = line.slice('diff --git '.length);
  const quoted = QUOTED.exec(rest)?.[0];
  if (quoted !== undefined) {
    const target = rest.slice(quoted.length + 1);
    return rest[quoted.length] === ' ' && /^"?b\//.test(target) ? [quoted, target] : null;
  }
  const quotedTarget = / "b\/(?:[^"\\]|\\.)*"$/.exec(rest);
  const at = quotedTarget ? quotedTarget.index : rest.lastIndexOf(' b/');
  return at > 0 ? [rest.slice(0, at), rest.slice(at + 1)] : null;
}

/** A path as a header writes it without its quotes and its `a/` or `b/` (escapes are left as written). */
export function barePath(p: string): string {
  const bare = p.startsWith('"') && p.endsWith('"') ? p.slice(1, -1) : p;
  return bare.startsWith('a/') || bare.startsWith('b/') ? bare.slice(2) : bare;
}
