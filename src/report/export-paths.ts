// The paths an export makes from a result file (docs/export.md): a task id comes from a file that may
// have been edited or shared, so every path made of it is checked before anything is read or written.
import { cp, lstat, mkdir, realpath } from 'node:fs/promises';
import { join, normalize } from 'node:path';
import { BenchrigError } from '../errors.ts';
import { isInside } from '../paths.ts';
import { logFile } from './result-layout.ts';

export function leadsOut(file: string, taskId: string, where: string): BenchrigError {
  return new BenchrigError(
    'usage',
    `${file}: task_id ${JSON.stringify(taskId)} leads outside ${where}; a task id is one file name (benchrig writes letters, digits, ".", "_", "-", "~"): restore the file's task_id, or move the file out of results/`,
  );
}

/**
 * The trial's kept files (docs/reports.md#files): its log as `trial.log`, the kept `/logs/…` folders
 * (`verifier/`, `agent/`, …) and an installed agent's session files under `agent/`.
 */
export async function copyKept(runDir: string, taskId: string, dir: string, file: string): Promise<void> {
  const log = normalize(logFile(runDir, taskId));
  const kept = join(runDir, 'trials', taskId);
  if (
    !isInside(join(runDir, 'logs'), log) ||
    kept === join(runDir, 'trials') ||
    !isInside(join(runDir, 'trials'), kept)
  )
    throw leadsOut(file, taskId, 'the run folder');
  await mkdir(dir, { recursive: true });
  const run = await realpath(runDir);
  if (await inRun(run, log)) await cp(log, join(dir, 'trial.log'));
  const copy = { recursive: true, filter: notLink };
  if (await inRun(run, join(kept, 'logs'))) await cp(join(kept, 'logs'), dir, copy);
  if (await inRun(run, join(kept, 'agent'))) await cp(join(kept, 'agent'), join(dir, 'agent'), copy);
}

/** A link in a kept folder is not followed out of it: it is left out. */
async function notLink(src: string): Promise<boolean> {
  return !(await lstat(src)).isSymbolicLink();
}

/** Whether `p` exists and is in the run folder once links are followed (a link out of it is left out, as inside kept folders). */
async function inRun(realRunDir: string, p: string): Promise<boolean> {
  return realpath(p).then(
    (real) => isInside(realRunDir, real),
    () => false,
  );
}
