// `benchrig export --format harbor` (docs/export.md#harbor): the run as Harbor's job folder. Per trial,
// beside its ATIF trajectory, the kept files as a Harbor trial keeps them, its config.json, lock.json,
// result.json and verifier/reward.txt; then the job's config.json and result.json (job.ts: the shapes).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { copyKept } from '../../report/export-paths.ts';
import type { Exporter } from '../../report/exporter.ts';
import { writeJsonAtomic, writeTextAtomic } from '../../report/write.ts';
import { jobConfig, jobResult, trialConfig, trialLock, trialResult } from './job.ts';

export const harborExporter: Exporter = {
  help: 'a Harbor job folder',
  out: 'the job folder',
  start(job) {
    const summaries: Parameters<typeof jobResult>[1] = [];
    return {
      async trial({ dir, name, file, result: r }) {
        await copyKept(job.runDir, r.task_id, dir, file);
        await writeJsonAtomic(join(dir, 'config.json'), trialConfig(job, r, name));
        await writeJsonAtomic(join(dir, 'lock.json'), trialLock(job, r));
        await writeJsonAtomic(join(dir, 'result.json'), trialResult(job, r, name));
        if (r.score !== null) await writeTextAtomic(join(dir, 'verifier', 'reward.txt'), `${r.score}\n`);
        summaries.push({ name, status: r.status, score: r.score, error: r.error, metadata: r.metadata, events: [] });
      },
      async finish() {
        await mkdir(job.dir, { recursive: true });
        await writeJsonAtomic(join(job.dir, 'config.json'), jobConfig(job));
        await writeJsonAtomic(join(job.dir, 'result.json'), jobResult(job, summaries));
      },
    };
  },
};
