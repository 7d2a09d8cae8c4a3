// `[grading] keep` (a Harbor task's /logs/agent, /logs/verifier, /logs/artifacts): folders copied
// out of the sandbox after grading into `<run>/trials/<task-id>/logs/<name>`, under the rules for
// files that come out of a sandbox (regular files and folders only, nothing outside the
// destination, size-capped: docs/sandboxes.md). The result names where each landed.
import path from 'node:path';
import type { Sandbox } from '../sandbox/types.ts';
import type { Session } from './session.ts';

const KEEP_MAX_BYTES = 50 * 1024 * 1024;

export async function keepFolders(s: Session, sandbox: Sandbox | undefined): Promise<Record<string, string>> {
  const kept: Record<string, string> = {};
  if (!sandbox) return kept;
  for (const folder of s.run.grading.keep ?? []) {
    const name = path.posix.basename(folder);
    const rel = path.join('trials', s.input.taskId.replace(/[^A-Za-z0-9_.#-]/g, '_'), 'logs', name);
    try {
      await sandbox.copyOut(folder, path.join(s.run.runDir, rel), { maxBytes: KEEP_MAX_BYTES });
      kept[name] = rel;
    } catch (err) {
      s.recorder.log('warn', `${folder} not kept: ${(err as Error)?.message ?? err}`);
    }
  }
  return kept;
}
