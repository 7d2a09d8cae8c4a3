// Which folders are Harbor task folders (docs/benchmarks.md#harbor-task-folders): a task.toml and an
// instruction.md. Only file checks, for `run`, `list` and `validate` to tell one before reading it.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const isHarborTask = (dir: string): boolean =>
  !!statSync(path.join(dir, 'task.toml'), { throwIfNoEntry: false })?.isFile() &&
  !!statSync(path.join(dir, 'instruction.md'), { throwIfNoEntry: false })?.isFile();

/** The Harbor task folders of `dir`: itself, or its subfolders that are tasks (a dataset); null: neither. */
export function harborTaskDirs(dir: string): string[] | null {
  if (isHarborTask(dir)) return [dir];
  const subs = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && isHarborTask(path.join(dir, e.name)))
    .map((e) => path.join(dir, e.name))
    .sort();
  return subs.length ? subs : null;
}

export const isHarborFolder = (dir: string): boolean =>
  !!statSync(dir, { throwIfNoEntry: false })?.isDirectory() && harborTaskDirs(dir) !== null;
