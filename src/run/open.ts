// A run's second step: the run folder (a fresh one, or the one `--resume` finishes), its lock, run.json
// (status running, settled on every way out but SIGKILL: run-status.ts), the provider's placement bound to the run
// id and the run span. Each goes on the cleanup stack as it is acquired.
import { hostname } from 'node:os';
import { basename, join } from 'node:path';
import { startRunTrace, type RunTrace } from '../telemetry/spans.ts';
import type { TrialInput } from '../trial/types.ts';
import { writeJsonAtomic } from '../report/write.ts';
import type { Cleanup } from './cleanup.ts';
import { checkpoint, type RunOptions } from './options.ts';
import { asStorage } from './output-dir.ts';
import type { PreparedRun } from './prepare.ts';
import { prepareResume, type ResumeState } from './resume.ts';
import { PRICE_TABLE } from '../llm/price-table.ts';
import { createRunDir, createRunDirAt, gitCommit, HARNESS_VERSION, redact } from './run-dir.ts';
import { acquireRunLock } from './run-lock.ts';
import { guardRunJson, type RunStatus } from './run-status.ts';
import { onceAmong } from './shared-checks.ts';

export type RunJson = ReturnType<typeof runJsonOf>;

export interface OpenRun {
  runDir: string;
  runId: string;
  /** run.json as written; its status and finished_at are settled at the run's end. */
  runJson: RunJson;
  /** The trials still to run (a resumed run's missing ones). */
  toRun: Iterable<TrialInput> & { readonly length: number };
  trace: RunTrace | null;
  /** The run's shared volume, once the trials step made one (removed with the run's sandboxes). */
  volume: string | null;
}

export async function openRunFolder(p: PreparedRun, opts: RunOptions, cleanup: Cleanup): Promise<OpenRun> {
  const resumed = opts.resume ? await prepareResume(opts.resume, opts.cwd, p.settings, p.trials) : null;
  const runDir =
    resumed?.runDir ??
    (await (
      opts.runFolder
        ? createRunDirAt(opts.runFolder, p.trials.length)
        : createRunDir(p.outputRoot, p.agentId, p.benchmark.name, undefined, p.trials.length)
    ).catch(asStorage(opts.runFolder ?? p.outputRoot)));
  const lock = resumed?.lock ?? acquireRunLock(runDir, runDir); // a fresh folder: no one else's
  cleanup.defer('the run lock', lock.release);
  checkpoint(opts, 'run-folder');
  const runId =
    (resumed?.runJson.run_id as string | undefined) ??
    `${basename(runDir)}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const runJson = runJsonOf(p, opts, runId, resumed);
  const settle = () => settleStatus(runJson, opts.signal);
  await writeJsonAtomic(join(runDir, 'run.json'), runJson).catch(asStorage(join(runDir, 'run.json')));
  // From here run.json is settled on every way out but SIGKILL (run-status.ts).
  const guard = guardRunJson(runDir, runJson, () => (opts.signal.aborted ? 'interrupted' : 'failed'));
  cleanup.defer('run.json', async () => {
    settle();
    runJson.finished_at = new Date().toISOString();
    guard.releaseReserve(); // its room is for these last writes
    await guard.write();
    guard.dispose();
  });
  const open: OpenRun = { runDir, runId, runJson, toRun: resumed?.pending ?? p.trials, trace: null, volume: null };
  bindSandboxes(p, open, cleanup);
  checkpoint(opts, 'run-json');
  if (resumed) {
    opts.console.info(`resuming ${runDir}: ${resumed.kept} trial(s) kept, ${open.toRun.length} to run`);
    const before = agentCodeBefore(resumed);
    if (before.length && before.at(-1) !== p.agentModule?.sha256)
      opts.console.warn(
        `--resume: the agent module ${p.agentModule?.module} changed since this run began (sha256 ${before.at(-1)} -> ${p.agentModule?.sha256}): the ${resumed.kept} kept trial(s) ran the earlier code (run.json agent.sha256_before)`,
      );
  }
  // The run span; every trial span, in whatever worker, is its child (docs/telemetry.md).
  open.trace =
    p.traceSettings &&
    (await startRunTrace(
      p.traceSettings,
      {
        'benchrig.run.id': runId,
        'benchrig.benchmark': p.benchmark.name,
        'benchrig.benchmark.version': p.benchmark.version,
        'benchrig.agent': p.agentId,
        'benchrig.mode': p.cfg.run.mode,
      },
      opts.console.info,
    ));
  const trace = open.trace;
  if (trace) cleanup.defer('the run span', () => trace.end(settle())); // ends the run span and flushes every exporter
  return open;
}

/**
 * The provider places this run's sandboxes (when it has several hosts); at the end, a backstop: whatever a trial could not remove
 * is removed by its run label (the sweep leaves the kept ones), then the shared volume, unless kept
 * sandboxes still mount it (a later sweep removes it once they are gone).
 */
function bindSandboxes(p: PreparedRun, open: OpenRun, cleanup: Cleanup): void {
  const shared = p.shared;
  if (!shared) return;
  shared.bind?.(open.runId); // unbound with the provider's close (prepare.ts)
  cleanup.defer("the run's sandboxes", async () => {
    await shared.cleanup(open.runId, p.cfg.run.keep_sandbox ? null : open.volume).catch(() => {});
  });
}

/** A run that ended without saying how: interrupted when Ctrl-C stopped it, else failed. */
function settleStatus(runJson: RunJson, signal: AbortSignal): RunStatus {
  if (runJson.status === 'running') runJson.status = signal.aborted ? 'interrupted' : 'failed';
  return runJson.status;
}

/** `--label` and `--note`: a resumed run keeps its own unless new ones are given. */
function labelAndNote(opts: RunOptions, resumed: ResumeState | null) {
  const kept = (key: 'label' | 'note') => {
    const v = resumed?.runJson[key];
    return typeof v === 'string' ? v : null;
  };
  return { label: opts.label ?? kept('label'), note: opts.note ?? kept('note') };
}

/** The module agent's hashes of the run so far, oldest first (a resumed run's earlier sessions). */
function agentCodeBefore(resumed: ResumeState | null): string[] {
  const agent = resumed?.runJson.agent as { sha256?: string | null; sha256_before?: string[] } | undefined;
  const all = [...(agent?.sha256_before ?? []), ...(agent?.sha256 ? [agent.sha256] : [])];
  return all.filter((h, i) => all.indexOf(h) === i);
}

function runJsonOf(p: PreparedRun, opts: RunOptions, runId: string, resumed: ResumeState | null) {
  const { benchmark, cfg, agentRef } = p;
  const codeBefore = agentCodeBefore(resumed).filter((h) => h !== p.agentModule?.sha256);
  return {
    ...(resumed?.runJson ?? {}),
    schema_version: 1,
    run_id: runId,
    ...labelAndNote(opts, resumed),
    benchmark: {
      name: benchmark.name,
      id: benchmark.id,
      version: benchmark.version,
      dir: benchmark.dir,
      n_samples: benchmark.samples.length,
      n_samples_total: benchmark.nSamplesTotal,
    },
    dataset: benchmark.dataset,
    agent: {
      id: p.agentId,
      name: agentRef.name,
      options: redact(cfg.agent.options, benchmark.templates, ['agent', 'options']),
      // a built-in or installed agent is its name; a module is its path and the hash of its content
      module: p.agentModule?.module ?? null,
      sha256: p.agentModule?.sha256 ?? null,
      // --resume with the module changed since: the code the kept trials ran
      ...(codeBefore.length ? { sha256_before: codeBefore } : {}),
    },
    mode: cfg.run.mode,
    workers: p.layout.workers,
    per_worker: p.layout.per_worker,
    // given (flags, [run], a job file) or picked from what the trials do, and why (docs/running.md#layout)
    layout: { picked: p.layout.picked, why: p.layout.why },
    trials: cfg.n_trials,
    n_trials_total: p.trials.length,
    // the run's limits, budgets and timeouts among them: settings of the run, not of the benchmark's version
    limits: cfg.limits,
    user: { kind: cfg.user.kind },
    models: p.settings.models,
    settings: p.settings,
    started_at: (resumed?.runJson.started_at as string | undefined) ?? new Date().toISOString(),
    resumed_at: [
      ...((resumed?.runJson.resumed_at as string[] | undefined) ?? []),
      ...(resumed ? [new Date().toISOString()] : []),
    ],
    finished_at: null as string | null,
    harness_version: HARNESS_VERSION,
    // the table calls without `[llm] price` are priced by (docs/agents.md#cost)
    prices: PRICE_TABLE,
    git_commit: onceAmong(opts.shared, `git\n${opts.cwd}`, () => gitCommit(opts.cwd)),
    host: hostname(),
    pid: process.pid,
    status: 'running' as RunStatus,
  };
}
