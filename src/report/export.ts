// `benchrig export` (docs/export.md): a finished run's trials as ATIF trajectories, or as a Harbor job
// folder. Reads only the run folder's files (result files are already scrubbed of the run's secrets,
// and so are kept folders); writes each file atomically.
import { cp, lstat, mkdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { TrialResult } from '../types.ts';
import { exportName, toAtif, type AtifAgent } from './atif.ts';
import { jobConfig, jobResult, trialConfig, trialLock, trialResult, type JobInfo } from './harbor-job.ts';
import { writeJsonAtomic, writeTextAtomic } from './write.ts';

export const EXPORT_FORMATS = ['atif', 'harbor'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** What export reads of run.json (checked by its schema before). */
export interface RunJson {
  run_id: string;
  benchmark: { name: string; dir?: string };
  agent: { id: string; name: string; sha256?: string | null };
  trials?: number;
  models?: Record<string, string | null>;
  harness_version?: string;
  started_at: string;
  finished_at?: string | null;
}

export interface ExportInput {
  dir: string;
  run: RunJson;
  results: () => AsyncIterable<TrialResult>;
}

/** The agent as ATIF names it: benchrig's agent name, versioned by its module's hash or the harness's version. */
export function atifAgent(run: RunJson): AtifAgent {
  const model = run.models?.agent ?? undefined;
  const version = run.agent.sha256
    ? `sha256:${run.agent.sha256.slice(0, 12)}`
    : `benchrig-${run.harness_version ?? 'unknown'}`;
  return { name: run.agent.name, version, ...(model ? { model_name: model } : {}) };
}

export async function exportRun(input: ExportInput, format: ExportFormat, outArg: string): Promise<number> {
  const out = resolve(outArg);
  const agent = atifAgent(input.run);
  const ids = { run_id: input.run.run_id, benchmark: input.run.benchmark.name };
  const job: JobInfo = {
    dir: out,
    ...ids,
    benchmark_dir: input.run.benchmark.dir ?? input.run.benchmark.name,
    agent,
    trials: input.run.trials ?? 1,
    started_at: input.run.started_at,
    finished_at: input.run.finished_at ?? null,
  };
  const summaries: Parameters<typeof jobResult>[1] = [];
  let n = 0;
  for await (const r of input.results()) {
    n++;
    const name = exportName(r);
    const dir = join(out, name);
    if (format === 'harbor') await copyKept(input.dir, r.task_id, dir);
    await writeJsonAtomic(join(dir, 'agent', 'trajectory.json'), toAtif(r, agent, ids));
    if (format === 'harbor') {
      await writeJsonAtomic(join(dir, 'config.json'), trialConfig(job, r, name));
      await writeJsonAtomic(join(dir, 'lock.json'), trialLock(job, r));
      await writeJsonAtomic(join(dir, 'result.json'), trialResult(job, r, name));
      if (r.score !== null) await writeTextAtomic(join(dir, 'verifier', 'reward.txt'), `${r.score}\n`);
      summaries.push({ name, status: r.status, score: r.score, error: r.error, metadata: r.metadata, events: [] });
    }
  }
  if (format === 'harbor') {
    await mkdir(out, { recursive: true });
    await writeJsonAtomic(join(out, 'config.json'), jobConfig(job));
    await writeJsonAtomic(join(out, 'result.json'), jobResult(job, summaries));
  }
  return n;
}

/**
 * The trial's kept files (docs/reports.md#files): its log as `trial.log`, the kept `/logs/…` folders
 * (`verifier/`, `agent/`, … as in a Harbor trial) and an installed agent's session files under `agent/`.
 */
async function copyKept(runDir: string, taskId: string, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const log = join(runDir, 'logs', `${taskId}.log`);
  if (await exists(log)) await cp(log, join(dir, 'trial.log'));
  const kept = join(runDir, 'trials', taskId);
  const copy = { recursive: true, filter: notLink };
  if (await exists(join(kept, 'logs'))) await cp(join(kept, 'logs'), dir, copy);
  if (await exists(join(kept, 'agent'))) await cp(join(kept, 'agent'), join(dir, 'agent'), copy);
}

/** A link in a kept folder is not followed out of it: it is left out. */
async function notLink(src: string): Promise<boolean> {
  return !(await lstat(src)).isSymbolicLink();
}

async function exists(p: string): Promise<boolean> {
  return stat(p).then(
    () => true,
    () => false,
  );
}
