// `benchrig export` (docs/export.md): a finished run's trials as ATIF trajectories, or as a Harbor job
// folder. Reads only the run folder's files (result files are already scrubbed of the run's secrets,
// and so are kept folders); writes each file atomically, and only under --out: a task id comes from a
// file that may have been edited or shared, so every path made of it is checked first.
import { cp, lstat, mkdir, realpath } from 'node:fs/promises';
import { join, normalize, resolve } from 'node:path';
import { BenchrigError } from '../errors.ts';
import { isInside } from '../paths.ts';
import type { TrialResult } from '../types.ts';
import { exportName, toAtif, type AtifAgent } from './atif.ts';
import { jobConfig, jobResult, trialConfig, trialLock, trialResult, type JobInfo } from './harbor-job.ts';
import { logFile } from './result-layout.ts';
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

interface ExportInput {
  dir: string;
  run: RunJson;
  /** Each trial with the file it was read from (`results/[<xy>/]<name>.json`), which a refusal names. */
  results: () => AsyncIterable<{ file: string; result: TrialResult }>;
}

/** The agent as ATIF names it: benchrig's agent name, versioned by its module's hash or the harness's version. */
function atifAgent(run: RunJson): AtifAgent {
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
  for await (const { file, result: r } of input.results()) {
    n++;
    const name = exportName(r);
    const dir = join(out, name);
    if (dir === out || !isInside(out, dir)) throw leadsOut(file, r.task_id, `--out (${out})`);
    if (format === 'harbor') await copyKept(input.dir, r.task_id, dir, file);
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
async function copyKept(runDir: string, taskId: string, dir: string, file: string): Promise<void> {
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

function leadsOut(file: string, taskId: string, where: string): BenchrigError {
  return new BenchrigError(
    'usage',
    `${file}: task_id ${JSON.stringify(taskId)} leads outside ${where}; a task id is one file name (benchrig writes letters, digits, ".", "_", "-", "~"): restore the file's task_id, or move the file out of results/`,
  );
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
