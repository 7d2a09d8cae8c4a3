// A SWE-bench trial's own files (docs/reports.md#files): trials/<task-id>/model.patch (the whole
// diff), report.json (the official per-instance entry, when the official harness would write one)
// and test_output.txt (the log graded). Written
// by the harness from what it graded, never copied from a sandbox; each atomically.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ModelPatch } from '../../checks/types.ts';
import { officialEntry, officialReportWritten, swebenchArtifactKey } from './check.ts';
import { writeJsonAtomic, writeTextAtomic } from '../../report/write.ts';
import type { CheckVerdict } from '../../types.ts';

export async function saveSwebenchFiles(
  dir: string,
  instanceId: string,
  patch: ModelPatch,
  verdicts: CheckVerdict[],
  artifacts: Record<string, unknown>,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeTextAtomic(join(dir, 'model.patch'), patch.text, { durable: false });
  const graded = verdicts.find((v) => v.type === 'swebench' && v.details);
  if (!graded?.details) return;
  const saved = artifacts[swebenchArtifactKey(graded.name)] as { test_output?: unknown } | undefined;
  const log = typeof saved?.test_output === 'string' ? saved.test_output : '';
  // As the official harness: no report.json for an instance whose patch did not apply or whose tests timed out.
  if (officialReportWritten(log))
    await writeJsonAtomic(
      join(dir, 'report.json'),
      { [instanceId]: officialEntry(graded.details) },
      { durable: false },
    );
  if (log !== '') await writeTextAtomic(join(dir, 'test_output.txt'), log, { durable: false });
}
