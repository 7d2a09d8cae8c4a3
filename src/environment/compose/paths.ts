// Paths a compose file names on the host (bind sources, build contexts, env files): relative to the
// compose file's folder, and only inside the task folder once symlinks and `..` are resolved
// (docs/benchmarks.md#compose-tasks). A task's `tests/` and `solution/` are never mounted: the agent
// would read the tests, or change them for the trials after it.
import { lstatSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { otherThanFileOrFolder } from '../file-kind.ts';

type Inside = { path: string } | { problem: string };

export function insideTask(taskDir: string, composeDir: string, written: string): Inside {
  if (written.startsWith('~')) return { problem: `"${written}" is in a home folder, outside the task folder` };
  const abs = path.resolve(composeDir, written);
  const real = realPath(abs);
  if (real === null) return { problem: `"${written}" is a symbolic link that leads nowhere` };
  const root = realpathSync(taskDir);
  const rel = path.relative(root, real);
  if (rel.startsWith('..') || path.isAbsolute(rel)) {
    const what = /docker\.sock$/.test(real) || /docker\.sock$/.test(abs) ? 'is the Docker socket, ' : 'is ';
    return { problem: `"${written}" ${what}outside the task folder (it resolves to ${real})` };
  }
  return { path: real };
}

/**
 * A bind source: inside the task folder, neither covering nor inside its tests/ or solution/, and a
 * file or a folder when it exists (a FIFO, socket or device would be read to copy it in: for ever).
 */
export function bindSource(taskDir: string, composeDir: string, written: string): Inside {
  const inside = insideTask(taskDir, composeDir, written);
  if ('problem' in inside) return inside;
  const root = realpathSync(taskDir);
  for (const hidden of ['tests', 'solution']) {
    const h = path.join(root, hidden);
    const rel = path.relative(inside.path, h);
    const covers = rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
    const within = !path.relative(h, inside.path).startsWith('..');
    if (covers || within)
      return { problem: `"${written}" would mount the task's ${hidden}/ folder, which the agent must not reach` };
  }
  const st = statSync(inside.path, { throwIfNoEntry: false });
  const other = st && otherThanFileOrFolder(st);
  if (other)
    return {
      problem: `"${written}" is ${other} (${inside.path}), not a file or a folder: reading it to copy it in could wait for ever`,
    };
  return inside;
}

/** The real path of `p`, following symlinks; a part that does not exist yet is kept as written. */
function realPath(p: string): string | null {
  const rest: string[] = [];
  let cur = p;
  for (;;) {
    const st = lstatSync(cur, { throwIfNoEntry: false });
    if (st) {
      if (st.isSymbolicLink() && !statSync(cur, { throwIfNoEntry: false })) return null;
      return path.join(realpathSync(cur), ...rest);
    }
    const up = path.dirname(cur);
    if (up === cur) return path.join(cur, ...rest);
    rest.unshift(path.basename(cur));
    cur = up;
  }
}
