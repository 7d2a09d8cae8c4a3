// A run's last step, after everything it acquired is released: the report rebuilt from the result
// files whatever happened (docs/reports.md), published, summed up on the console, and the exit code.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runExitCode } from '../exit-codes.ts';
import { buildReport, readResults, type BuildReportOptions } from '../report/aggregate.ts';
import { PAGE_TRIALS_COUNTED, pageBudgetFor, trialEntry } from '../report/html.ts';
import { listResults } from '../report/result-layout.ts';
import { TrialPageSpool } from '../report/html-spool.ts';
import type { EvaluationReport } from '../report/types.ts';
import type { TrialResult } from '../types.ts';
import type { OpenRun } from './open.ts';
import type { RunOptions, RunOutcome } from './options.ts';
import { asStorage, storageFailure } from './output-dir.ts';
import type { PreparedRun } from './prepare.ts';
import { publishReport, REPORT_FILE } from './publish.ts';
import type { TrialsOutcome } from './run-trials.ts';
import { hostsReport } from './sandboxes.ts';
import type { StorageStop } from './storage-watch.ts';

interface EndedRun {
  prepared: PreparedRun;
  open: OpenRun;
  trials: TrialsOutcome;
}

export async function reportRun(e: EndedRun, opts: RunOptions): Promise<RunOutcome> {
  const { runDir } = e.open;
  // A full disk: the partial report, if it fits, and the one line that says how to finish the run.
  if (e.trials.storage)
    return finishAfterStorageFailure(e.trials.storage, runDir, opts, () =>
      buildReport(reportInput(e, false, readResults(runDir))),
    );
  // One pass over the result files makes both the report and report.html's trial data (html-spool.ts);
  // the folders listed once, counted as far as the page needs (PAGE_TRIALS_COUNTED).
  const listing = listResults(runDir, PAGE_TRIALS_COUNTED);
  const n = listing.count;
  const spool = await TrialPageSpool.open(join(runDir, '.tmp'), trialEntry(n), pageBudgetFor(n)).catch(() => null);
  const results = readResults(runDir, listing.names);
  let report: EvaluationReport;
  try {
    report = await buildReport(reportInput(e, true, spool ? spool.tee(results) : results));
    // with a provider of several hosts: trials and infrastructure errors per host
    const hosts = e.prepared.shared?.hosts?.();
    if (hosts) Object.assign(report, { hosts: await hostsReport(hosts, readResults(runDir)) });
    if (e.trials.tripped) Object.assign(report, { circuit_breaker: e.trials.tripped });
    const stepSummary = (opts.env ?? process.env).GITHUB_STEP_SUMMARY;
    await publishReport(runDir, report, {
      spool: spool && !spool.failed ? spool : undefined,
      stepSummary,
      warn: opts.console.warn,
      checkTypes: e.prepared.benchmark.checks.map((c) => c.type),
    }).catch(asStorage(join(runDir, REPORT_FILE)));
  } finally {
    await spool?.dispose();
  }
  await rm(join(runDir, '.tmp'), { recursive: true, force: true });
  opts.console.summary(report, runDir);
  return { exitCode: runExitCode(report, !!e.trials.tripped), runDir, report };
}

function reportInput(
  e: EndedRun,
  withBaseline: boolean,
  results: Iterable<TrialResult> | AsyncIterable<TrialResult>,
): BuildReportOptions {
  const { benchmark, cfg, agentId, agentRef, baseline } = e.prepared;
  const { runId, runDir, runJson } = e.open;
  return {
    benchmark: { name: benchmark.name, version: benchmark.version, n_samples: benchmark.samples.length },
    agent: {
      id: agentId,
      name: agentRef.name,
      module: runJson.agent.module,
      sha256: runJson.agent.sha256,
      model: cfg.llm.model ?? null,
    },
    run: {
      id: runId,
      ...(runJson.label !== null ? { label: runJson.label } : {}),
      ...(runJson.note !== null ? { note: runJson.note } : {}),
      dir: runDir,
      mode: cfg.run.mode,
      workers: runJson.workers,
      trials: cfg.n_trials,
      status: runJson.status,
      started_at: runJson.started_at,
      finished_at: runJson.finished_at ?? new Date().toISOString(),
    },
    gate: cfg.gate,
    blocksAreSuccess: cfg.blocks_are_success,
    results,
    ...(withBaseline ? { baseline: baseline?.report } : {}),
  };
}

/**
 * The disk failed mid-run: every saved result stays, the partial report is written if it still
 * fits, and the run ends with one line naming the path and how to finish it (exit 3).
 */
async function finishAfterStorageFailure(
  storage: StorageStop,
  runDir: string,
  opts: RunOptions,
  build: () => Promise<EvaluationReport>,
): Promise<never> {
  let saved: number | null = null;
  try {
    const report = await build();
    saved = report.metrics.n_trials;
    await publishReport(runDir, report, { warn: opts.console.warn });
  } catch (err) {
    opts.console.warn(`the partial report was not written: ${(err as Error).message}`);
  }
  const kept = saved === null ? '' : `${saved} trial(s) saved; `;
  throw storageFailure(
    storage.path,
    storage.err,
    `the run stopped (${kept}run.json says failed). Free space, then finish it with --resume ${runDir}`,
  );
}
