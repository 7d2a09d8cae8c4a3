// One run (docs/running.md): validate everything, prepare what all trials share, schedule the trials on the
// chosen pool, then aggregate the result files into evaluation_report.json.
import { hostname } from 'node:os';
import { basename, extname, join, resolve } from 'node:path';
import { rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { resolveAgentRef } from '../agents/load.ts';
import { checkAgentModule } from '../agents/probe.ts';
import { loadBenchmark } from '../benchmark/load.ts';
import { checkBenchmarkModules } from '../benchmark/modules.ts';
import type { Benchmark } from '../benchmark/types.ts';
import type { Config, LlmConfig } from '../config/schema.ts';
import { BenchrigError } from '../errors.ts';
import { buildReport, readResults, resultNames } from '../report/aggregate.ts';
import { TrialPageSpool } from '../report/html-spool.ts';
import type { EvaluationReport } from '../report/types.ts';
import { writeJsonAtomic } from '../report/write.ts';
import { trialEntry, writeHtmlReport } from '../report/html.ts';
import { appendStepSummary } from '../report/markdown.ts';
import { resolveBaseline } from '../report/history.ts';
import { poolFor } from '../pool/index.ts';
import { schedule } from '../pool/scheduler.ts';
import type { SandboxSpec } from '../sandbox/types.ts';
import { loadHooks } from '../trial/hooks.ts';
import type { RunContext, TrialInput, TrialSummary } from '../trial/types.ts';
import { failedResult, resultFile, saveFailedResult } from '../trial/result.ts';
import { bringsOwnSandbox, SampleEnvironments } from './environments.ts';
import { usesRunImage } from '../benchmark/sample-sandbox.ts';
import { createRunDir, gitCommit, HARNESS_VERSION, redact, safeName } from './run-dir.ts';
import { TrialPlan, taskIdsHash } from './trials.ts';
import { hashOf, prepareResume, type RunSettings } from './resume.ts';
import { hostsReport, prepareSandboxes, resolveFleet, type SharedResources } from './sandboxes.ts';
import type { RunConsole } from './console.ts';
import { telemetrySettings, type TraceMode } from '../telemetry/otel.ts';
import { startRunTrace } from '../telemetry/spans.ts';
import { checkOutputWritable, isStorageError, probeWrite, storageFailure } from './output-dir.ts';
import { guardRunJson } from './run-status.ts';
import { acquireRunLock } from './run-lock.ts';
import { ModelCircuitBreaker, type BreakerTrip } from './circuit-breaker.ts';
import { prepareInstalledAgent } from './installed-agent.ts';
import { modelProtocols } from './model-protocols.ts';
import { checkModelEndpoints } from './model-check.ts';

export interface RunOptions {
  benchmark: string;
  cwd: string;
  configFile?: string;
  env?: NodeJS.ProcessEnv;
  /** A partial Config from command-line flags: the last layer. */
  flags: Record<string, unknown>;
  sample?: string[];
  limit?: number;
  shuffle?: boolean;
  seed?: string | number;
  console: RunConsole;
  /** Aborted by the first Ctrl-C. */
  signal: AbortSignal;
  /** `--resume RUN_DIR`: finish that run instead of starting one. */
  resume?: string;
  /** `--baseline RUN_DIR|auto`: compare the report with that run (docs/reports.md#metrics). */
  baseline?: string;
  /** `--trace`: the OpenTelemetry exporter (default: OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set). */
  trace?: TraceMode;
  /** `--docker-host URL=CAPACITY` (repeatable): the fleet of Docker hosts, over [[sandbox.hosts]]. */
  dockerHosts?: string[];
}

export interface RunOutcome {
  exitCode: number;
  runDir: string;
  report: EvaluationReport;
}

export async function runBenchmark(opts: RunOptions): Promise<RunOutcome> {
  // 1–2. validate everything before anything is written (exit 2 leaves no run folder)
  const benchmark = await loadBenchmark(opts.benchmark, {
    cwd: opts.cwd, configFile: opts.configFile, env: opts.env, flags: opts.flags,
    sample: opts.sample, limit: opts.limit, shuffle: opts.shuffle, seed: opts.seed, log: opts.console.info,
  });
  const cfg = benchmark.config;
  // an output folder the run cannot write is refused now, before Docker or an image build (exit 2)
  const outputRoot = resolve(opts.cwd, cfg.run.output);
  if (!opts.resume) checkOutputWritable(outputRoot);
  else if (existsSync(resolve(opts.cwd, opts.resume))) checkOutputWritable(resolve(opts.cwd, opts.resume), '--resume');
  const agentRef = resolveAgentRef(cfg.agent.name, opts.cwd);
  await checkBenchmarkModules(benchmark);
  // An agent module that does not load is refused now (exit 2), and its build is cached for the workers.
  await checkAgentModule(agentRef);
  const agentId = cfg.agent.id ?? (agentRef.module ? basename(agentRef.module, extname(agentRef.module)) : agentRef.name);
  const makePool = poolFor(cfg.run.mode);
  const sandbox = sandboxSpec(cfg);
  // a fleet of Docker hosts (docs/fleet.md); none: the local daemon, as always
  const fleetHosts = sandbox && (await resolveFleet(cfg, {
    benchmarkDir: benchmark.dir, configFile: opts.configFile && resolve(opts.cwd, opts.configFile), env: opts.env ?? process.env, flags: opts.flags, dockerHosts: opts.dockerHosts,
  }));
  if (sandbox && fleetHosts) sandbox.fleet = fleetHosts;
  if (benchmark.samples.length === 0) throw new BenchrigError('dataset', `${benchmark.name}: no samples to run`);
  const traceSettings = telemetrySettings(opts.env ?? process.env, opts.trace, HARNESS_VERSION); // null: nothing loaded

  // the baseline is refused (exit 2) before anything is written
  const baseline = opts.baseline
    ? await resolveBaseline(opts.baseline, {
        cwd: opts.cwd, say: opts.console.info, exclude: opts.resume && resolve(opts.cwd, opts.resume),
        runsDir: join(resolve(opts.cwd, cfg.run.output), safeName(agentId), safeName(benchmark.name)),
      })
    : null;

  // 3. the shared environment: Docker checked and the image built before the run folder exists
  const shared: SharedResources | null = sandbox
    ? await prepareSandboxes(sandbox, opts.console, {
        maxSandboxes: cfg.run.max_sandboxes, cooldownMs: cfg.sandbox?.host_cooldown_s && cfg.sandbox.host_cooldown_s * 1000,
        ensureImage: usesRunImage(benchmark.samples, cfg.sandbox), signal: opts.signal,
      })
    : null;
  // An installed agent: refused now if it cannot work here, its runtime in the host cache (docs/agents.md#installed-agents).
  const installedAgent = await prepareInstalledAgent(cfg, agentRef.name, sandbox, opts.console.info);
  // The model side, once, before anything is written: a wrong URL or key is not 100% AGENT_ERROR.
  if (cfg.run.llm_cache !== 'replay') await checkModelEndpoints(cfg.llm, modelProtocols(agentRef.name, cfg.agent.options)).catch((err) => (installedAgent?.dispose(), Promise.reject(err)));
  const trials = new TrialPlan(benchmark.samples, cfg.n_trials);
  const settings: RunSettings = {
    benchmark_version: benchmark.version,
    agent: agentRef.module ?? agentRef.name,
    agent_options_hash: hashOf(cfg.agent.options),
    trials: cfg.n_trials,
    limits: cfg.limits,
    task_ids_hash: taskIdsHash(trials),
    user: cfg.user.kind,
    models: { agent: cfg.llm.model, user: cfg.user.llm?.model ?? cfg.llm.model, judge: cfg.judge.llm?.model ?? cfg.llm.model },
  };
  const resumed = opts.resume ? await prepareResume(opts.resume, opts.cwd, settings, trials) : null;
  const runDir = resumed?.runDir ?? (await createRunDir(outputRoot, agentId, benchmark.name).catch(asStorage(outputRoot)));
  const runLock = resumed?.lock ?? acquireRunLock(runDir, runDir); // a fresh folder: no one else's
  const runId: string = resumed?.runJson.run_id ?? `${basename(runDir)}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  shared?.bind?.(runId); // the fleet places this run's sandboxes
  const toRun = resumed?.pending ?? trials;
  const runJson = {
    ...(resumed?.runJson ?? {}),
    schema_version: 1,
    run_id: runId,
    benchmark: { name: benchmark.name, version: benchmark.version, dir: benchmark.dir, n_samples: benchmark.samples.length, n_samples_total: benchmark.nSamplesTotal },
    dataset: benchmark.dataset,
    agent: { id: agentId, name: agentRef.name, options: redact(cfg.agent.options, benchmark.templates, ['agent', 'options']) },
    mode: cfg.run.mode,
    workers: cfg.run.mode === 'single' ? 1 : cfg.run.workers,
    per_worker: cfg.run.per_worker,
    trials: cfg.n_trials,
    n_trials_total: trials.length,
    limits: cfg.limits,
    user: { kind: cfg.user.kind },
    models: settings.models,
    settings,
    started_at: (resumed?.runJson.started_at as string | undefined) ?? new Date().toISOString(),
    resumed_at: [...((resumed?.runJson.resumed_at as string[] | undefined) ?? []), ...(resumed ? [new Date().toISOString()] : [])],
    finished_at: null as string | null,
    harness_version: HARNESS_VERSION,
    git_commit: gitCommit(opts.cwd),
    host: hostname(),
    pid: process.pid,
    status: 'running' as 'running' | 'complete' | 'interrupted' | 'failed',
  };
  await writeJsonAtomic(join(runDir, 'run.json'), runJson).catch(asStorage(join(runDir, 'run.json')));
  // From here run.json is settled on every way out but SIGKILL (run-status.ts).
  const runJsonGuard = guardRunJson(runDir, runJson, () => (opts.signal.aborted ? 'interrupted' : 'failed'));
  if (resumed) opts.console.info(`resuming ${runDir}: ${resumed.kept} trial(s) kept, ${toRun.length} to run`);

  // The run span; every trial span, in whatever worker, is its child (docs/telemetry.md).
  const runTrace = traceSettings && (await startRunTrace(traceSettings, {
    'benchrig.run.id': runId, 'benchrig.benchmark': benchmark.name, 'benchrig.benchmark.version': benchmark.version,
    'benchrig.agent': agentId, 'benchrig.mode': cfg.run.mode,
  }, opts.console.info));
  let sharedVolume: string | null = null;
  let status: typeof runJson.status = 'complete';
  // A disk that fills up (or turns read-only) mid-run stops the run: no later result could be saved.
  let storage: { path: string; err: unknown } | null = null;
  const storageStop = new AbortController();
  const runSignal = AbortSignal.any([opts.signal, storageStop.signal]);
  const stopForStorage = (path: string, err: unknown) => {
    if (storage) return;
    storage = { path, err };
    storageStop.abort(new Error(`cannot write ${path}`));
  };
  // An error result whose file is not on disk: its save failed. A disk that takes no write is the cause.
  const checkSaved = (r: TrialSummary) => {
    if (!r.error || storage) return;
    const file = resultFile(runDir, r.task_id);
    if (existsSync(file)) return;
    const err = probeWrite(join(runDir, 'results'));
    const said = /\b(ENOSPC|EDQUOT|EROFS)\b/.exec(r.error.message)?.[1];
    if (err && isStorageError(err)) stopForStorage(file, err);
    else if (said) stopForStorage(file, Object.assign(new Error(r.error.message), { code: said }));
    else opts.console.warn(`${r.task_id}: its result could not be saved (${r.error.message})`);
  };
  let tripped: BreakerTrip | null = null;
  try {
    if (shared && cfg.sandbox?.shared) sharedVolume = await shared.createVolume(runId, cfg.sandbox.shared.source);
    const hooks = await loadHooks(benchmark.hooks);
    await hooks.prepareShared?.({ runDir, benchmarkDir: benchmark.dir, samples: benchmark.samples });
    const run = runContext(benchmark, opts.cwd, runId, runDir, agentId, agentRef, sandbox && {
      ...sandbox,
      shared: sharedVolume && cfg.sandbox?.shared ? { volume: sharedVolume, mount: cfg.sandbox.shared.mount } : null,
    });
    if (installedAgent) run.installed = installedAgent.installed;

    // Samples that bring their own sandbox get its image (found, built or pulled) before they run.
    const environments = sandbox && bringsOwnSandbox(benchmark.samples)
      ? new SampleEnvironments(run.sandbox!, {
          benchmark: benchmark.name, benchmarkDir: benchmark.dir, runDir, maxBuilds: cfg.run.max_builds, buildTimeoutS: cfg.run.build_timeout_s, pull: cfg.run.pull, noNetwork: cfg.run.no_network, log: opts.console.info,
        })
      : null;
    const prepare = environments && (async (trial: TrialInput) => {
      const ready = await environments.prepare(trial);
      if (!('kind' in ready)) return ready;
      const result = failedResult(run, trial, ready, new Date());
      await saveFailedResult(run, result);
      return result;
    });

    // 4. every trial, on the chosen pool
    const pool = await makePool(runTrace?.carry(run) ?? run, { workers: cfg.run.workers, perWorker: cfg.run.per_worker, maxSandboxes: cfg.run.max_sandboxes ?? shared?.fleet?.limit });
    opts.console.start(benchmark, toRun.length, runDir, cfg.run.mode);
    const breaker = new ModelCircuitBreaker(cfg.agent.name === 'nop' ? 0 : cfg.run.circuit_breaker);
    try {
      await schedule(pool, breaker.gate(toRun), {
        signal: runSignal,
        // Events cross worker boundaries only when someone reads them live (--verbose).
        hooks: opts.console.wantsEvents ? { onEvent: opts.console.event } : {},
        onStart: opts.console.trialStarted,
        onResult: (r) => (breaker.observe(r), opts.console.trialFinished(r), checkSaved(r)),
        onRetry: (t, attempt, r) => opts.console.warn(`${t.taskId}: infrastructure error (${r.error?.message ?? 'sandbox'}); retrying with a fresh sandbox (${attempt})`),
        ...(prepare ? { prepare } : {}),
      });
    } finally {
      await pool.close();
    }
    if (storage) status = 'failed';
    else if (opts.signal.aborted) status = 'interrupted';
    tripped = breaker.finish();
    if (tripped && status === 'complete') {
      status = 'failed';
      opts.console.warn(`stopped: the first ${cfg.run.circuit_breaker} trials all failed with the same model error (${tripped.error}); ${tripped.trials_not_started} trial(s) never started`);
    }
  } catch (err) {
    // single mode: a result that could not be saved rejects the trial itself
    if (isStorageError(err)) stopForStorage(join(runDir, 'results'), err);
    status = storage ? 'failed' : opts.signal.aborted ? 'interrupted' : 'failed';
    if (!opts.signal.aborted && !storage) throw err;
  } finally {
    // a backstop: whatever a trial could not remove is removed by its run label (unless kept on purpose)
    if (shared && !cfg.run.keep_sandbox) await shared.cleanup(runId, sharedVolume).catch(() => {});
    installedAgent?.dispose();
    // 5. the report, rebuilt from the result files, whatever happened above
    runJson.status = status;
    runJson.finished_at = new Date().toISOString();
    runJsonGuard.releaseReserve(); // its room is for these last writes
    await runJsonGuard.write();
    runJsonGuard.dispose();
    runLock.release();
    await runTrace?.end(status); // ends the run span and flushes every exporter
  }
  const reportOf = (withBaseline: boolean, results = readResults(runDir)) => buildReport({
    benchmark: { name: benchmark.name, version: benchmark.version, n_samples: benchmark.samples.length },
    agent: { id: agentId, name: agentRef.name },
    run: { id: runId, dir: runDir, mode: cfg.run.mode, workers: runJson.workers, trials: cfg.n_trials, status, started_at: runJson.started_at, finished_at: runJson.finished_at! },
    gate: cfg.gate,
    blocksAreSuccess: cfg.blocks_are_success,
    results,
    ...(withBaseline ? { baseline: baseline?.report } : {}),
  });
  // A full disk: the partial report, if it fits, and the one line that says how to finish the run.
  if (storage) return finishAfterStorageFailure(storage, runDir, opts, () => reportOf(false));

  // One pass over the result files makes both the report and report.html's trial data (html-spool.ts).
  const names = await resultNames(runDir);
  const spool = await TrialPageSpool.open(join(runDir, '.tmp'), trialEntry(names.length)).catch(() => null);
  const report = await reportOf(true, spool ? spool.tee(readResults(runDir, names)) : readResults(runDir, names)).catch(async (err) => {
    await spool?.dispose();
    throw err;
  });
  // on a fleet: trials and infrastructure errors per Docker host
  if (shared?.fleet) Object.assign(report, { hosts: await hostsReport(shared.fleet, readResults(runDir)) });
  if (tripped) Object.assign(report, { circuit_breaker: tripped });
  await writeJsonAtomic(join(runDir, 'evaluation_report.json'), report).catch(asStorage(join(runDir, 'evaluation_report.json')));
  // the same report for people: report.html in the run folder, Markdown on a GitHub Actions run page
  await writeHtmlReport(runDir, report, undefined, spool && !spool.failed ? spool : undefined)
    .catch((err) => opts.console.warn(`report.html not written: ${(err as Error).message}`))
    .finally(() => spool?.dispose());
  const stepSummary = (opts.env ?? process.env).GITHUB_STEP_SUMMARY;
  if (stepSummary) await appendStepSummary(stepSummary, report).catch((err) => opts.console.warn(`$GITHUB_STEP_SUMMARY not written: ${(err as Error).message}`));
  await rm(join(runDir, '.tmp'), { recursive: true, force: true });
  opts.console.summary(report, runDir);
  return { exitCode: tripped && report.run.status !== 'interrupted' ? 3 : exitCode(report), runDir, report };
}

/** An errno of the disk as the user's error naming the path (exit 3); anything else as it was. */
const asStorage = (path: string) => (err: unknown): never => {
  throw isStorageError(err) ? storageFailure(path, err) : err;
};

/**
 * The disk failed mid-run: every saved result stays, the partial report is written if it still
 * fits, and the run ends with one line naming the path and how to finish it (exit 3).
 */
async function finishAfterStorageFailure(
  storage: { path: string; err: unknown },
  runDir: string,
  opts: RunOptions,
  build: () => Promise<EvaluationReport>,
): Promise<never> {
  let saved: number | null = null;
  try {
    const report = await build();
    saved = report.metrics.n_trials;
    await writeJsonAtomic(join(runDir, 'evaluation_report.json'), report);
    await writeHtmlReport(runDir, report);
  } catch (err) {
    opts.console.warn(`the partial report was not written: ${(err as Error).message}`);
  }
  const kept = saved === null ? '' : `${saved} trial(s) saved; `;
  throw storageFailure(storage.path, storage.err, `the run stopped (${kept}run.json says failed). Free space, then finish it with --resume ${runDir}`);
}

/** `run`'s exit code (docs/cli.md): 130 for an interrupted run, else the gate's. */
export function exitCode(report: EvaluationReport): number {
  return report.run.status === 'interrupted' ? 130 : gateExitCode(report);
}

/** 3 when every trial was an infrastructure error, 1 when the gate failed, else 0 (evaluate, review). */
export function gateExitCode(report: EvaluationReport): number {
  const n = report.metrics.n_trials;
  if (n > 0 && report.metrics.status_counts.SANDBOX_ERROR === n) return 3;
  if (report.gate && !report.gate.passed) return 1;
  return 0;
}

function sandboxSpec(cfg: Config): SandboxSpec | null {
  const s = cfg.sandbox;
  if (!s) return null;
  return {
    image: s.image, build: s.build, workdir: s.workdir, network: cfg.run.no_network ? 'none' : s.network, memory: s.memory, disk: s.disk, cpus: s.cpus, pids: s.pids,
    setup: s.setup, capAdd: s.cap_add, shared: null,
    execTimeoutMs: cfg.limits.exec_timeout_s * 1000, maxOutputBytes: cfg.limits.max_output_bytes,
  };
}

function withDefaults(base: LlmConfig, over: Partial<LlmConfig> | undefined): LlmConfig {
  return { ...base, ...Object.fromEntries(Object.entries(over ?? {}).filter(([, v]) => v !== undefined)) };
}

export function runContext(
  b: Benchmark, cwd: string, runId: string, runDir: string, agentId: string, agentRef: { name: string; module?: string }, sandbox: SandboxSpec | null,
): RunContext {
  const cfg = b.config;
  return {
    runId, runDir, harnessPid: process.pid,
    benchmark: { name: b.name, dir: b.dir, version: b.version, checks: b.checks, hooks: b.hooks, blocksAreSuccess: cfg.blocks_are_success },
    agent: { name: agentRef.name, id: agentId, module: agentRef.module, options: cfg.agent.options },
    user: cfg.user,
    llm: { agent: cfg.llm, user: withDefaults(cfg.llm, cfg.user.llm), judge: withDefaults(cfg.llm, cfg.judge.llm) },
    limits: cfg.limits,
    sandbox,
    grading: {
      isolation: cfg.grading.isolation, outputs: cfg.grading.outputs ?? [],
      ...(cfg.grading.tests_dir ? { testsDir: cfg.grading.tests_dir } : {}), ...(cfg.grading.keep ? { keep: cfg.grading.keep } : {}),
    },
    keepSandbox: cfg.run.keep_sandbox,
    llmCache: { mode: cfg.run.llm_cache, dir: join(resolve(cwd, cfg.run.output), '.llm-cache') },
  };
}
