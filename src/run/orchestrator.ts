// One run (SPEC §6): validate everything, prepare what all trials share, schedule the trials on the
// chosen pool, then aggregate the result files into evaluation_report.json.
import { hostname } from 'node:os';
import { basename, extname, join, resolve } from 'node:path';
import { rm } from 'node:fs/promises';
import { resolveAgentRef } from '../agents/load.ts';
import { loadBenchmark } from '../benchmark/load.ts';
import type { Benchmark } from '../benchmark/types.ts';
import type { Config, LlmConfig } from '../config/schema.ts';
import { BenchrigError } from '../errors.ts';
import { buildReport, readResults } from '../report/aggregate.ts';
import type { EvaluationReport } from '../report/types.ts';
import { writeJsonAtomic } from '../report/write.ts';
import { poolFor } from '../pool/index.ts';
import { schedule } from '../pool/scheduler.ts';
import type { SandboxSpec } from '../sandbox/types.ts';
import { loadHooks } from '../trial/hooks.ts';
import type { RunContext } from '../trial/types.ts';
import { createRunDir, gitCommit, HARNESS_VERSION, redact } from './run-dir.ts';
import { expandTrials } from './trials.ts';
import { prepareSandboxes, type SharedResources } from './sandboxes.ts';
import type { RunConsole } from './console.ts';

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
    sample: opts.sample, limit: opts.limit, shuffle: opts.shuffle, seed: opts.seed,
  });
  const cfg = benchmark.config;
  const agentRef = resolveAgentRef(cfg.agent.name, opts.cwd);
  const agentId = cfg.agent.id ?? (agentRef.module ? basename(agentRef.module, extname(agentRef.module)) : agentRef.name);
  const makePool = poolFor(cfg.run.mode);
  const sandbox = sandboxSpec(cfg);
  if (benchmark.samples.length === 0) throw new BenchrigError('dataset', `${benchmark.name}: no samples to run`);

  // 3. the shared environment: Docker checked and the image built before the run folder exists
  const shared: SharedResources | null = sandbox ? await prepareSandboxes(sandbox, opts.console) : null;
  const runDir = await createRunDir(resolve(opts.cwd, cfg.run.output), agentId, benchmark.name);
  const runId = `${basename(runDir)}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const startedAt = new Date();
  const trials = expandTrials(benchmark.samples, cfg.n_trials);
  const runJson = {
    schema_version: 1,
    run_id: runId,
    benchmark: { name: benchmark.name, version: benchmark.version, dir: benchmark.dir, n_samples: benchmark.samples.length, n_samples_total: benchmark.nSamplesTotal },
    dataset: benchmark.dataset,
    agent: { id: agentId, name: agentRef.name, options: redact(cfg.agent.options) },
    mode: cfg.run.mode,
    workers: cfg.run.mode === 'single' ? 1 : cfg.run.workers,
    per_worker: cfg.run.per_worker,
    trials: cfg.n_trials,
    n_trials_total: trials.length,
    limits: cfg.limits,
    user: { kind: cfg.user.kind },
    models: { agent: cfg.llm.model, user: cfg.user.llm?.model ?? cfg.llm.model, judge: cfg.judge.llm?.model ?? cfg.llm.model },
    started_at: startedAt.toISOString(),
    finished_at: null as string | null,
    harness_version: HARNESS_VERSION,
    git_commit: gitCommit(opts.cwd),
    host: hostname(),
    pid: process.pid,
    status: 'running' as 'running' | 'complete' | 'interrupted' | 'failed',
  };
  await writeJsonAtomic(join(runDir, 'run.json'), runJson);

  let sharedVolume: string | null = null;
  let status: typeof runJson.status = 'complete';
  try {
    if (shared && cfg.sandbox?.shared) sharedVolume = await shared.createVolume(runId, cfg.sandbox.shared.source);
    const hooks = await loadHooks(benchmark.hooks);
    await hooks.prepareShared?.({ runDir, benchmarkDir: benchmark.dir, samples: benchmark.samples });
    const run = runContext(benchmark, opts.cwd, runId, runDir, agentId, agentRef, sandbox && {
      ...sandbox,
      shared: sharedVolume && cfg.sandbox?.shared ? { volume: sharedVolume, mount: cfg.sandbox.shared.mount } : null,
    });

    // 4. every trial, on the chosen pool
    const pool = await makePool(run, { workers: cfg.run.workers, perWorker: cfg.run.per_worker });
    opts.console.start(benchmark, trials.length, runDir, cfg.run.mode);
    try {
      await schedule(pool, trials, {
        signal: opts.signal,
        hooks: { onEvent: opts.console.event },
        onStart: opts.console.trialStarted,
        onResult: opts.console.trialFinished,
      });
    } finally {
      await pool.close();
    }
    if (opts.signal.aborted) status = 'interrupted';
  } catch (err) {
    status = opts.signal.aborted ? 'interrupted' : 'failed';
    if (!opts.signal.aborted) throw err;
  } finally {
    // a backstop: whatever a trial could not remove is removed by its run label (unless kept on purpose)
    if (shared && !cfg.run.keep_sandbox) await shared.cleanup(runId, sharedVolume).catch(() => {});
    // 5. the report, rebuilt from the result files, whatever happened above
    runJson.status = status;
    runJson.finished_at = new Date().toISOString();
    await writeJsonAtomic(join(runDir, 'run.json'), runJson);
  }

  const report = await buildReport({
    benchmark: { name: benchmark.name, version: benchmark.version, n_samples: benchmark.samples.length },
    agent: { id: agentId, name: agentRef.name },
    run: { id: runId, dir: runDir, mode: cfg.run.mode, workers: runJson.workers, trials: cfg.n_trials, status, started_at: runJson.started_at, finished_at: runJson.finished_at! },
    gate: cfg.gate,
    blocksAreSuccess: cfg.blocks_are_success,
    results: readResults(runDir),
  });
  await writeJsonAtomic(join(runDir, 'evaluation_report.json'), report);
  await rm(join(runDir, '.tmp'), { recursive: true, force: true });
  opts.console.summary(report, runDir);
  return { exitCode: exitCode(report), runDir, report };
}

export function exitCode(report: EvaluationReport): number {
  if (report.run.status === 'interrupted') return 130;
  const n = report.metrics.n_trials;
  if (n > 0 && report.metrics.status_counts.SANDBOX_ERROR === n) return 3;
  if (report.gate && !report.gate.passed) return 1;
  return 0;
}

function sandboxSpec(cfg: Config): SandboxSpec | null {
  const s = cfg.sandbox;
  if (!s) return null;
  return {
    image: s.image, build: s.build, workdir: s.workdir, network: s.network, memory: s.memory, cpus: s.cpus, pids: s.pids,
    setup: s.setup, capAdd: s.cap_add, shared: null,
    execTimeoutMs: cfg.limits.exec_timeout_s * 1000, maxOutputBytes: cfg.limits.max_output_bytes,
  };
}

function withDefaults(base: LlmConfig, over: Partial<LlmConfig> | undefined): LlmConfig {
  return { ...base, ...Object.fromEntries(Object.entries(over ?? {}).filter(([, v]) => v !== undefined)) };
}

function runContext(
  b: Benchmark, cwd: string, runId: string, runDir: string, agentId: string, agentRef: { name: string; module?: string }, sandbox: SandboxSpec | null,
): RunContext {
  const cfg = b.config;
  return {
    runId, runDir,
    benchmark: { name: b.name, dir: b.dir, version: b.version, checks: b.checks, hooks: b.hooks, blocksAreSuccess: cfg.blocks_are_success },
    agent: { name: agentRef.name, id: agentId, module: agentRef.module, options: cfg.agent.options },
    user: cfg.user,
    llm: { agent: cfg.llm, user: withDefaults(cfg.llm, cfg.user.llm), judge: withDefaults(cfg.llm, cfg.judge.llm) },
    limits: cfg.limits,
    sandbox,
    keepSandbox: cfg.run.keep_sandbox,
    llmCache: { mode: cfg.run.llm_cache, dir: join(resolve(cwd, cfg.run.output), '.llm-cache') },
  };
}
