// A job (docs/running.md#jobs): benchmarks × agents × models, each cell an ordinary run folder under
// the job folder (evals/jobs/<job-id>/<cell>/), all their trials on one pool (job-trials.ts). Every
// cell is prepared and opened as runBenchmark does it (prepare.ts, open.ts) on ONE cleanup stack:
// all loaded first, so that the pool boots while they are checked (pool-boot.ts), and what cells
// share is checked once (shared-checks.ts). Then each cell is reported as a run, and the job
// report compares them (report/job-report.ts).
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { cellFlags, cellsOf, CONFIGURED_MODEL, type Cell } from '../job/cells.ts';
import type { JobSpec } from '../job/file.ts';
import { readJobJson, writeJobJson, type JobJson } from '../job/job-json.ts';
import { jobExitCode } from '../exit-codes.ts';
import { withCleanup } from './cleanup.ts';
import { runJobTrials, type OpenCell } from './job-trials.ts';
import { publishJobReport, type JobReportCell } from './job-report.ts';
import { openRunFolder } from './open.ts';
import type { RunOptions } from './options.ts';
import { bootJobPool } from './pool-boot.ts';
import { checkRun, loadRun, type LoadedRun } from './prepare.ts';
import { timestamp } from './run-dir.ts';
import { reportRun } from './run-report.ts';
import { SharedChecks } from './shared-checks.ts';

interface JobOptions extends Omit<RunOptions, 'benchmark' | 'resume' | 'runFolder'> {
  job: JobSpec;
  /** `--resume JOB_DIR`: finish that job. */
  resume?: string;
  /** `--gate-any`: the job passes when one cell passes its gate. */
  gateAny?: boolean;
}

interface JobOutcome {
  exitCode: number;
  jobDir: string;
}

export async function runJob(o: JobOptions): Promise<JobOutcome> {
  const { jobDir, json } = await openJob(o);
  const cells = cellsOf(json.spec);
  const shared = new SharedChecks();
  const cellOpts = cells.map((c) => ({ ...cellOptions(o, json.spec, c, jobDir), shared }));
  const opened = await withCleanup(async (cleanup) => {
    const loaded: LoadedRun[] = [];
    for (const opts of cellOpts) loaded.push(await loadRun(opts));
    const pool = bootJobPool(loaded, cleanup);
    // One cell after another: a cell finds the image the first one built (docs/running.md#jobs).
    const open: OpenCell[] = [];
    for (const [i, opts] of cellOpts.entries()) {
      const prepared = await checkRun(loaded[i], null, opts, cleanup);
      open.push({ opts, prepared, open: await openRunFolder(prepared, opts, cleanup) });
    }
    for (const [i, c] of open.entries()) json.cells[i].status = c.open.runJson.status;
    await writeJobJson(jobDir, json);
    const trials = await runJobTrials(open, pool, { ...o, benchmark: '' }, cleanup);
    return open.map((c, i) => ({ ...c, trials: trials[i] }));
  }, o.console.warn);
  const reported: JobReportCell[] = [];
  for (const [i, c] of opened.entries()) {
    const outcome = await reportRun({ prepared: c.prepared, open: c.open, trials: c.trials }, c.opts);
    Object.assign(json.cells[i], { status: outcome.report.run.status, exit_code: outcome.exitCode });
    reported.push({ cell: cells[i], runDir: outcome.runDir, report: outcome.report, exitCode: outcome.exitCode });
  }
  const gateAny = o.gateAny ?? json.spec.gate_any ?? false;
  const exitCode = jobExitCode(
    reported.map((r) => r.exitCode),
    gateAny,
  );
  json.status = o.signal.aborted
    ? 'interrupted'
    : reported.every((r) => r.report.run.status === 'complete')
      ? 'complete'
      : 'failed';
  json.finished_at = new Date().toISOString();
  await writeJobJson(jobDir, json);
  await publishJobReport(jobDir, json, reported, { gateAny, exitCode, console: o.console });
  return { exitCode, jobDir };
}

/** A fresh job folder and its job.json, or the one `--resume` finishes (its own spec wins). */
async function openJob(o: JobOptions): Promise<{ jobDir: string; json: JobJson }> {
  if (o.resume) {
    const jobDir = resolve(o.cwd, o.resume);
    const json = readJobJson(jobDir);
    json.resumed_at.push(new Date().toISOString());
    json.status = 'running';
    return { jobDir, json };
  }
  const root = resolve(o.cwd, o.job.run?.output ?? (o.flags.run as { output?: string })?.output ?? 'evals', 'jobs');
  await mkdir(root, { recursive: true });
  let jobDir = join(root, timestamp());
  for (let i = 2; existsSync(jobDir); i++) jobDir = join(root, `${timestamp()}-${i}`);
  await mkdir(jobDir);
  const json: JobJson = {
    schema_version: 1,
    job_id: relative(root, jobDir),
    status: 'running',
    started_at: new Date().toISOString(),
    resumed_at: [],
    finished_at: null,
    spec: o.job,
    cells: cellsOf(o.job).map((c) => ({
      id: c.id,
      benchmark: c.benchmark,
      agent: c.agentId,
      model: c.model?.name ?? CONFIGURED_MODEL,
      label: c.label,
      run_dir: c.id,
      status: 'pending',
      exit_code: null,
    })),
  };
  await writeJobJson(jobDir, json);
  return { jobDir, json };
}

/** A cell's run: its folder in the job's (resumed when it has a run.json), its agent and model over the job's flags. */
function cellOptions(o: JobOptions, spec: JobSpec, cell: Cell, jobDir: string): RunOptions {
  const folder = join(jobDir, cell.id);
  const { job: _job, gateAny: _gateAny, resume: _resume, ...base } = o;
  return {
    ...base,
    benchmark: cell.benchmark,
    flags: cellFlags(spec, cell, o.flags, o.env ?? process.env),
    label: cell.label,
    endpointDownIsWarning: true,
    console: { ...o.console, summary: () => {} },
    ...(existsSync(join(folder, 'run.json')) ? { resume: folder } : { runFolder: folder }),
  };
}
