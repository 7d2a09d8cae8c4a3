// `[grading] keep` (a task folder's /logs/agent, /logs/verifier, /logs/artifacts): folders copied
// out of the sandbox after grading into `<run>/trials/<task-id>/logs/<name>`, under the rules for
// files that come out of a sandbox (regular files and folders only, nothing outside the
// destination, bounded in bytes and entries: docs/sandboxes.md). The copies together are bounded in time too
// (the agent could fill a folder with enough empty files to hold the trial for minutes). The result
// names where each landed and, for each that was cut short, what was left. What lands there is
// scrubbed of the run's secrets (config/scrub-files.ts), as every file benchrig writes.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { scrubFiles } from '../config/scrub-files.ts';
import type { CopyOutReport, Sandbox } from '../sandbox/types.ts';
import { trialTimeoutOf } from './per-trial.ts';
import { runScrubber } from './scrub.ts';
import type { Session } from './session.ts';

const KEEP_MAX_BYTES = 50 * 1024 * 1024;
/** For all kept folders together, and never more than the trial's own timeout. */
const KEEP_DEADLINE_MS = 60_000;

interface KeptFolders {
  /** name -> where it landed, relative to the run folder. */
  kept: Record<string, string>;
  /** name -> what was not copied, for the folders cut short or with entries skipped. */
  skipped: Record<string, string>;
}

export async function keepFolders(s: Session, sandbox: Sandbox | undefined): Promise<KeptFolders> {
  const out: KeptFolders = { kept: {}, skipped: {} };
  if (!sandbox) return out;
  const budgetMs = Math.min(KEEP_DEADLINE_MS, trialTimeoutOf(s.run, s.input) * 1000);
  const deadline = performance.now() + budgetMs;
  for (const folder of s.run.grading.keep ?? []) {
    const name = path.posix.basename(folder);
    const rel = path.join('trials', s.input.taskId.replace(/[^A-Za-z0-9_.#-]/g, '_'), 'logs', name);
    const left = Math.round(deadline - performance.now());
    if (left <= 0) {
      note(s, out, name, `${folder} not copied out: the ${budgetMs / 1000} s for copying kept folders had passed`);
      continue;
    }
    try {
      const dest = path.join(s.run.runDir, rel);
      let report: CopyOutReport;
      try {
        report = await sandbox.copyOut(folder, dest, {
          maxBytes: KEEP_MAX_BYTES,
          deadlineMs: left,
          signal: s.opts.signal,
        });
      } finally {
        await scrubKept(s, folder, dest); // what landed before a failure too
      }
      out.kept[name] = rel;
      const what = summary(folder, report);
      if (what) note(s, out, name, what);
    } catch (err) {
      s.recorder.log('warn', `${folder} not kept: ${(err as Error)?.message ?? err}`);
    }
  }
  return out;
}

/** What the agent left there is written into the run folder by us: no secret stays in it (a model's echo of its key). */
async function scrubKept(s: Session, folder: string, dest: string): Promise<void> {
  try {
    const { files, renamed } = await scrubFiles(dest, runScrubber(s.run));
    if (files.length || renamed)
      s.recorder.log(
        'warn',
        `${folder}: secrets replaced in ${files.length} file(s)${renamed ? ` and ${renamed} name(s)` : ''} (first: ${files[0] ?? 'a name'})`,
      );
  } catch (err) {
    await rm(dest, { recursive: true, force: true });
    throw new Error(`its copy could not be scrubbed of secrets, so it was removed: ${(err as Error)?.message ?? err}`);
  }
}

function note(s: Session, out: KeptFolders, name: string, text: string): void {
  out.skipped[name] = text;
  s.recorder.log('warn', text);
}

/** One line on what a copy left out, or null when it copied everything. */
function summary(folder: string, r: CopyOutReport): string | null {
  const parts: string[] = [];
  if (r.stopped) parts.push(`copy-out of ${folder} ${r.stopped}`);
  if (r.skipped.length) {
    const first = r.skipped[0];
    parts.push(
      `${r.skipped.length} entr${r.skipped.length === 1 ? 'y' : 'ies'} of ${folder} skipped (first: ${first.path}: ${first.reason})`,
    );
  }
  return parts.length ? parts.join('; ') : null;
}
