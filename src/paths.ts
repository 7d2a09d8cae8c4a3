// Whether a path stays in a folder: the one check for names that come from a file benchrig did not
// write itself (a dataset row's folder, a result file's task id in an export).
import path from 'node:path';

/** `p` is `root` or under it, once both are resolved (`..` segments too; links are the caller's to follow). */
export function isInside(root: string, p: string): boolean {
  const rel = path.relative(path.resolve(root), path.resolve(p));
  return rel === '' || (!rel.startsWith('..' + path.sep) && rel !== '..' && !path.isAbsolute(rel));
}
