// `benchrig evaluate RUN_DIR` (docs/cli.md, docs/running.md): re-grade the saved results without an agent or a new
// sandbox, then rebuild evaluation_report.json. Each result file is read once and streamed: it is
// re-graded, rewritten only when its verdicts changed or its judge was asked again, folded into the report and dropped.
import { readFile, rmdir } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { loadBenchmark } from '../benchmark/load.ts';
import type { Benchmark } from '../benchmark/types.ts';
import { BenchrigError } from '../errors.ts';
import { buildReport, readResults } from '../report/aggregate.ts';
import { loadRunReport } from '../report/compare.ts';
import type { EvaluationReport, RunJson } from '../report/types.ts';
import type { GateConfig } from '../report/gate.ts';
import { writeJsonAtomic } from '../report/write.ts';
import { isSharded, listResults, resultFile } from '../report/result-layout.ts';
import { PAGE_TRIALS_COUNTED, pageBudgetFor, trialEntry } from '../report/html.ts';
import { TrialPageSpool } from '../report/html-spool.ts';
import { publishReport } from '../run/publish.ts';
import type { TrialResult } from '../types.ts';
import { regradeChanged, regradeResult, regradingFor } from './regrade.ts';
import { gateExitCode } from '../exit-codes.ts';
import { settleBulkRead } from '../loader/heap-flags.mjs';

export async function readRunJson(runDir: string): Promise<RunJson> {
  const path = join(runDir, 'run.json');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new BenchrigError('usage', `${runDir}: not a run folder (no run.json)`);
  }
  try {
    return JSON.parse(text) as RunJson;
  } catch (err) {
    throw new BenchrigError('usage', `${path}: not valid JSON (${(err as Error).message})`);
  }
}

/** The previous report, when there is a readable one. */
export async function readPreviousReport(runDir: string): Promise<EvaluationReport | null> {
  try {
    return JSON.parse(await readFile(join(runDir, 'evaluation_report.json'), 'utf8')) as EvaluationReport;
  } catch {
    return null;
  }
}

/**
 * The benchmark the run names, loaded with the trials and limits the run used (they are part of the
 * version), so an untouched benchmark has the run's version. A different version is a warning.
 */
async function loadRunBenchmark(
  run: RunJson,
  opts: { cwd: string; env?: NodeJS.ProcessEnv; configFile?: string; say: (line: string) => void },
): Promise<Benchmark> {
  if (!run.benchmark?.dir) throw new BenchrigError('usage', 'run.json names no benchmark folder (benchmark.dir)');
  const flags: Record<string, unknown> = {};
  if (typeof run.trials === 'number') flags.n_trials = run.trials;
  if (run.limits && typeof run.limits === 'object') flags.limits = run.limits;
  const b = await loadBenchmark(run.benchmark.dir, {
    cwd: opts.cwd,
    env: opts.env,
    configFile: opts.configFile,
    flags,
  });
  if (b.version !== run.benchmark.version)
    opts.say(
      `benchrig: warning: the benchmark's version is now ${b.version}, the run was made with ${run.benchmark.version}: ` +
        're-grading with the current checks; compare the result with runs of either version with care',
    );
  return b;
}

/** What a rebuilt report takes of the previous one: the run's identity, and its comparison. */
type PreviousReport = Pick<EvaluationReport, 'benchmark' | 'agent' | 'run' | 'comparison'>;

/**
 * The parts of the previous report a rebuilt one takes, the rest let go (at a million trials its 100,000 task
 * entries were ~50 MB of heap that every full collection of the pass marked again).
 */
const identityOf = (r: EvaluationReport | null): PreviousReport | null =>
  r && { benchmark: r.benchmark, agent: r.agent, run: r.run, comparison: r.comparison };

interface RebuildOptions {
  run: RunJson;
  runDir: string;
  previous: PreviousReport | null;
  gate: GateConfig | null | undefined;
  blocksAreSuccess: boolean;
  /** What becomes of each saved result before the report takes it (`evaluate`: re-graded); as saved without. */
  regrade?: (saved: Iterable<TrialResult>) => AsyncIterable<TrialResult>;
}

/** The report's agent from run.json: its module and hash when run.json records them (docs/reports.md#runjson). */
function agentOf(run: RunJson): EvaluationReport['agent'] {
  const { id, name, module, sha256 } = run.agent;
  return { id, name, ...(module !== undefined ? { module } : {}), ...(sha256 !== undefined ? { sha256 } : {}) };
}

/** `--label` and `--note`, from the old report or run.json; absent when the run has none. */
function labelAndNote(prev: PreviousReport | null, run: RunJson): { label?: string; note?: string } {
  const label = prev?.run.label ?? run.label ?? undefined;
  const note = prev?.run.note ?? run.note ?? undefined;
  return { ...(label !== undefined ? { label } : {}), ...(note !== undefined ? { note } : {}) };
}

/** evaluation_report.json rebuilt from result files; the run's identity comes from the old report or run.json. */
export async function rebuildReport(o: RebuildOptions): Promise<EvaluationReport> {
  const prev = o.previous;
  const run = o.run;
  // A comparison made at run time (--baseline) is made again against the same baseline run.
  const baseDir = (prev?.comparison as { baseline?: { dir?: unknown } } | null)?.baseline?.dir;
  const baseline = typeof baseDir === 'string' ? await loadRunReport(baseDir).catch(() => null) : null;
  // The result folders listed once: counted as far as report.html needs (PAGE_TRIALS_COUNTED), then read.
  const listing = listResults(o.runDir, PAGE_TRIALS_COUNTED);
  const saved = readResults(o.runDir, listing.names);
  const results = o.regrade ? o.regrade(saved) : saved;
  // report.html's trial data made in the same pass (html-spool.ts), not from a second read of every result file
  const n = listing.count;
  const spool = await TrialPageSpool.open(join(o.runDir, '.tmp'), trialEntry(n), pageBudgetFor(n)).catch(() => null);
  try {
    return await rebuildWith(o, results, prev, run, baseline, spool);
  } finally {
    await spool?.dispose();
    await rmdir(join(o.runDir, '.tmp')).catch(() => {}); // only when empty: a run going on may have its own spool there
  }
}

async function rebuildWith(
  o: RebuildOptions,
  results: Iterable<TrialResult> | AsyncIterable<TrialResult>,
  prev: PreviousReport | null,
  run: RunJson,
  baseline: EvaluationReport | null,
  spool: TrialPageSpool | null,
): Promise<EvaluationReport> {
  const report = await buildReport({
    benchmark: prev?.benchmark ?? {
      name: run.benchmark.name,
      version: run.benchmark.version,
      n_samples: run.benchmark.n_samples,
    },
    agent: prev?.agent ?? agentOf(run),
    run: {
      id: prev?.run.id ?? run.run_id,
      ...labelAndNote(prev, run),
      dir: o.runDir,
      mode: prev?.run.mode ?? run.mode,
      workers: prev?.run.workers ?? run.workers,
      trials: prev?.run.trials ?? run.trials,
      status: prev?.run.status ?? run.status,
      started_at: prev?.run.started_at ?? run.started_at,
      finished_at: prev?.run.finished_at ?? run.finished_at ?? new Date().toISOString(),
    },
    gate: o.gate ?? undefined,
    blocksAreSuccess: o.blocksAreSuccess,
    results: spool ? spool.tee(results) : results,
    baseline,
  });
  // The baseline run is gone: the old comparison is kept rather than silently dropped.
  if (!baseline && prev?.comparison) report.comparison = prev.comparison;
  // report.html shows the same numbers (its trials from the spool; from the result files again only when the spool failed)
  await publishReport(o.runDir, report, { spool: spool && !spool.failed ? spool : undefined });
  return report;
}

/** The trial's result file where it saved it (report/result-layout.ts); a task id that is not a plain file name is refused. */
export function resultPath(runDir: string, taskId: string): string {
  if (typeof taskId !== 'string' || !taskId || basename(taskId) !== taskId || taskId.startsWith('.'))
    throw new BenchrigError('usage', `${runDir}: result with an unusable task_id ${JSON.stringify(taskId)}`);
  return resultFile(runDir, taskId);
}

interface EvaluateOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  configFile?: string;
  say: (line: string) => void;
}

interface EvaluateOutcome {
  report: EvaluationReport;
  exitCode: number;
  /** Result files whose verdicts changed and were rewritten. */
  changed: string[];
  /** Results whose sample is no longer in the benchmark (kept as saved). */
  missing: string[];
  versionDiffers: boolean;
}

export async function evaluateRun(runDirArg: string, opts: EvaluateOptions): Promise<EvaluateOutcome> {
  settleBulkRead(); // every result is read, parsed and dropped (loader/heap-flags.mjs)
  const runDir = resolve(opts.cwd, runDirArg);
  const run = await readRunJson(runDir);
  const b = await loadRunBenchmark(run, opts);
  const samples = new Map(b.samples.map((s) => [s.id, s]));
  const previous = identityOf(await readPreviousReport(runDir));
  const regrading = await regradingFor(b, opts.cwd);
  const changed: string[] = [];
  const missing: string[] = [];

  async function* regraded(saved: Iterable<TrialResult>): AsyncIterable<TrialResult> {
    for (const r of saved) {
      const sample = samples.get(String(r.sample_id));
      if (!sample) missing.push(r.task_id);
      const next = await regradeResult(r, sample, regrading);
      // Rewritten when a verdict changed, or the judge was asked again (its new calls are recorded).
      if (regradeChanged(next, r)) {
        await writeJsonAtomic(resultPath(runDir, r.task_id), next, { compact: isSharded(runDir) });
        changed.push(r.task_id);
      }
      yield next;
    }
  }

  const report = await rebuildReport({
    run,
    runDir,
    previous,
    gate: b.config.gate,
    blocksAreSuccess: b.config.blocks_are_success,
    regrade: regraded,
  });
  if (missing.length)
    opts.say(
      `benchrig: warning: ${missing.length} result(s) name samples no longer in the benchmark, kept as saved: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''}`,
    );
  return {
    report,
    exitCode: gateExitCode(report),
    changed,
    missing,
    versionDiffers: b.version !== run.benchmark.version,
  };
}
