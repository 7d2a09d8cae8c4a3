// job.json (docs/running.md#jobs): what a job is (its spec, without secrets: a model's key is named by
// its variable) and, per cell, its run folder and how it ended. Written at the start, after every
// cell's run folder is made, and at the end; `--resume JOB_DIR` reads it back.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BenchrigError } from '../errors.ts';
import { writeJsonAtomic } from '../report/write.ts';
import type { JobSpec } from './file.ts';

export const JOB_FILE = 'job.json';

export type JobStatus = 'running' | 'complete' | 'interrupted' | 'failed';

export interface JobCellRecord {
  id: string;
  benchmark: string;
  agent: string;
  model: string;
  label: string;
  /** Relative to the job folder. */
  run_dir: string;
  /** The run's status (run.json), or `pending` before it ran. */
  status: string;
  exit_code: number | null;
}

export interface JobJson {
  schema_version: 1;
  job_id: string;
  status: JobStatus;
  started_at: string;
  resumed_at: string[];
  finished_at: string | null;
  spec: JobSpec;
  cells: JobCellRecord[];
}

export async function writeJobJson(jobDir: string, job: JobJson): Promise<void> {
  await writeJsonAtomic(join(jobDir, JOB_FILE), job);
}

export function readJobJson(jobDir: string): JobJson {
  const file = join(jobDir, JOB_FILE);
  let job: JobJson;
  try {
    job = JSON.parse(readFileSync(file, 'utf8')) as JobJson;
  } catch (err) {
    throw new BenchrigError('usage', `--resume ${jobDir}: no readable ${JOB_FILE} there (${(err as Error).message})`);
  }
  if (job?.schema_version !== 1 || !Array.isArray(job.cells) || !job.spec)
    throw new BenchrigError('usage', `--resume ${jobDir}: ${JOB_FILE} is not a benchrig job`);
  return job;
}
