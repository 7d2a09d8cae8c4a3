// A run's first step (docs/running.md): everything validated and everything all trials share made
// ready before anything is written. A refusal here is exit 2 and leaves no run folder; what is
// acquired (the provider's preparation, the installed agent's socket folder) goes on the run's cleanup stack.
import { existsSync } from 'node:fs';
import { basename, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { checkAgentOptions, loadAgentTraits, resolveAgentRef, type AgentTraits } from '../agents/load.ts';
import { agentModuleHash } from '../agents/module-hash.ts';
import { checkAgentModule, type LoadCheckContext } from '../agents/probe.ts';
import { loadBenchmarkStreamed } from '../benchmark/load.ts';
import { publicSample } from '../benchmark/public.ts';
import { checkBenchmarkModules } from '../benchmark/modules.ts';
import { usesRunImage } from '../benchmark/sample-sandbox.ts';
import type { Benchmark, Samples } from '../benchmark/types.ts';
import type { Config } from '../config/schema.ts';
import type { Sample } from '../types.ts';
import { BenchrigError } from '../errors.ts';
import { warnSameName } from './same-name.ts';
import { resolveBaseline, type BaselineChoice } from '../report/history.ts';
import { resolveProvider, type ProviderRun } from '../sandbox/index.ts';
import type { SandboxSpec } from '../sandbox/types.ts';
import { telemetrySettings, type TelemetrySettings } from '../telemetry/otel.ts';
import type { Cleanup } from './cleanup.ts';
import { prepareInstalledAgent, type PreparedInstalledAgent } from './installed-agent.ts';
import { checkModelEndpoints } from './model-check.ts';
import { chooseLayout, trialWork, type Layout } from './layout.ts';
import { checkpoint, type RunOptions } from './options.ts';
import { checkOutputWritable } from './output-dir.ts';
import { hashOf, type RunSettings } from './resume.ts';
import { HARNESS_VERSION, safeName } from './run-dir.ts';
import { ensurePrebuiltImages } from './prebuilt-images.ts';
import { bootRunPool, type RunPool } from './pool-boot.ts';
import { prepareSandboxes } from './sandboxes.ts';
import { onceAmong } from './shared-checks.ts';
import { TrialPlan, taskIdsHash } from './trials.ts';

export interface AgentRef {
  name: string;
  module?: string;
}

/** What a module agent is (run.json `agent.module`, `agent.sha256`); null for a built-in or installed agent. */
export interface AgentModuleRecord {
  /** The module's path, relative to the working folder when inside it. */
  module: string;
  /** sha256 of the module and its local imports (agents/module-hash.ts). */
  sha256: string;
}

export interface PreparedRun {
  /** Its samples read as the run takes them (a local JSON Lines dataset is not held: dataset/lazy.ts). */
  benchmark: Benchmark<Samples>;
  cfg: Config;
  agentRef: AgentRef;
  /** What the run asks of its agent (agents/load.ts), never its name. */
  traits: AgentTraits;
  agentModule: AgentModuleRecord | null;
  agentId: string;
  /** The root of run folders (`[run] output`). */
  outputRoot: string;
  /** The run's `[sandbox]` (null: a benchmark without sandboxes), on its provider. */
  sandbox: SandboxSpec | null;
  /** The run's prepared environments (the provider's `prepare`): images, shared volume, placement, cleanup. */
  shared: ProviderRun | null;
  installed: PreparedInstalledAgent | null;
  baseline: BaselineChoice | null;
  traceSettings: TelemetrySettings | null;
  trials: TrialPlan;
  settings: RunSettings;
  /** Workers and trials in flight in each: given, or picked from what the trials do (layout.ts). */
  layout: Layout;
  /** The run's pool, booting since the benchmark loaded (a job's cells share the job's: null). */
  pool: RunPool | null;
}

/** A run's benchmark loaded, with what its pool needs to boot: a job boots one for all its cells once each is loaded (job.ts). */
export interface LoadedRun {
  benchmark: Benchmark<Samples>;
  agentRef: AgentRef;
  traits: AgentTraits;
  sandbox: SandboxSpec | null;
  layout: Layout;
}

/** `withPool`: boot the run's pool as soon as the benchmark is loaded, while the rest is checked (pool-boot.ts). */
export async function prepareRun(opts: RunOptions, cleanup: Cleanup, withPool = false): Promise<PreparedRun> {
  const loaded = await loadRun(opts);
  const { benchmark, agentRef, sandbox, layout } = loaded;
  const pool = withPool ? bootRunPool(benchmark, agentRef, sandbox, layout, cleanup) : null;
  return checkRun(loaded, pool, opts, cleanup);
}

/** The benchmark and its agent loaded, the sandbox's provider and the layout chosen: nothing checked or acquired yet. */
export async function loadRun(opts: RunOptions): Promise<LoadedRun> {
  const benchmark = await loadStreamed(opts);
  const cfg = benchmark.config;
  if (benchmark.samples.length === 0) throw new BenchrigError('dataset', `${benchmark.name}: no samples to run`);
  const agentRef = resolveAgentRef(cfg.agent.name, opts.cwd);
  const traits = await loadAgentTraits(agentRef, cfg.agent.options, benchmark.modelSet);
  const sandbox = sandboxOnProvider(benchmark, opts);
  const layout = chooseLayout(cfg.run, trialWork(agentRef, cfg));
  return { benchmark, agentRef, traits, sandbox, layout };
}

/** The rest of the first step, the pool booting meanwhile: every check, the sandboxes and the model made ready. */
export async function checkRun(
  { benchmark, agentRef, traits, sandbox, layout }: LoadedRun,
  pool: RunPool | null,
  opts: RunOptions,
  cleanup: Cleanup,
): Promise<PreparedRun> {
  const cfg = benchmark.config;
  const { agentId, outputRoot } = await checkLoaded(benchmark, agentRef, opts);
  const agentModule = agentRef.module
    ? await onceAmong(opts.shared, `hash\n${agentRef.module}\n${opts.cwd}`, () =>
        moduleRecord(agentRef.module as string, opts.cwd),
      )
    : null;
  // a job's cells of one benchmark and one output folder: said once
  if (!opts.resume)
    await onceAmong(opts.shared, `same-name\n${outputRoot}\n${benchmark.id}`, () =>
      warnSameName(outputRoot, benchmark, opts.console.warn),
    );
  const traceSettings = telemetrySettings(opts.env ?? process.env, opts.trace, HARNESS_VERSION); // null: nothing loaded
  // the baseline is refused (exit 2) before anything is written
  const baseline = opts.baseline
    ? await resolveBaseline(opts.baseline, {
        cwd: opts.cwd,
        say: opts.console.info,
        exclude: opts.resume && resolve(opts.cwd, opts.resume),
        runsDir: join(outputRoot, safeName(agentId), safeName(benchmark.name)),
        identity: benchmark.id,
      })
    : null;
  const pull = cfg.run.pull ? { timeoutMs: cfg.run.pull_timeout_s * 1000 } : undefined;
  // The shared environment: the engine checked and the image built (or pulled) before the run folder exists.
  const shared =
    sandbox &&
    (await prepareSandboxes(sandbox, opts.console, {
      maxSandboxes: cfg.run.max_sandboxes,
      buildImage: usesRunImage(benchmark.samples, cfg.sandbox),
      ...(pull ? { pull } : {}),
      signal: opts.signal,
    }));
  if (shared?.close) cleanup.defer('the sandbox provider', () => shared.close?.());
  // The samples' prebuilt images: here, pulled (--pull), or the run refused before it starts.
  if (shared)
    await ensurePrebuiltImages(benchmark, shared.images, {
      ...(pull ? { pull } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
      info: opts.console.info,
    });
  checkpoint(opts, 'sandboxes');
  // An installed agent: refused now if it cannot work here, its runtime in the host cache (docs/agents.md#installed-agents).
  const installed = traits.installed
    ? await prepareInstalledAgent(cfg, agentRef.name, sandbox, opts.console.info, shared?.images)
    : null;
  if (installed) cleanup.defer("the installed agent's socket folder", installed.dispose);
  checkpoint(opts, 'installed-agent');
  // The model side, once, before anything is written: a wrong URL or key is not 100% MODEL_ERROR.
  if (cfg.run.llm_cache !== 'replay')
    await checkModelEndpoints(
      cfg.llm,
      traits.modelApis,
      { templates: benchmark.templates, env: opts.env ?? process.env },
      opts.shared,
    ).catch((err: unknown) => {
      // A job's cell: one model that is down costs its own cells (their trials end MODEL_ERROR), not the job.
      if (!(opts.endpointDownIsWarning && err instanceof BenchrigError && err.kind === 'llm')) throw err;
      opts.console.warn(`${benchmark.name} · ${cfg.llm.model}: ${err.message}`);
    });
  const trials = new TrialPlan(benchmark.samples, cfg.n_trials);
  return {
    benchmark,
    cfg,
    agentRef,
    traits,
    agentModule,
    agentId,
    outputRoot,
    sandbox,
    shared,
    installed,
    baseline,
    traceSettings,
    trials,
    settings: runSettings(benchmark, agentRef, trials),
    layout,
    pool,
  };
}

function loadStreamed(opts: RunOptions): Promise<Benchmark<Samples>> {
  return loadBenchmarkStreamed(opts.benchmark, {
    cwd: opts.cwd,
    configFile: opts.configFile,
    env: opts.env,
    flags: opts.flags,
    sample: opts.sample,
    limit: opts.limit,
    shuffle: opts.shuffle,
    seed: opts.seed,
    log: opts.console.info,
  });
}

/** Every refusal at load (exit 2): the output folder, the hooks, the agent module. */
async function checkLoaded(
  benchmark: Benchmark<Samples>,
  agentRef: AgentRef,
  opts: RunOptions,
): Promise<{ agentId: string; outputRoot: string }> {
  const cfg = benchmark.config;
  // an output folder the run cannot write is refused now, before the sandbox engine or an image build (exit 2)
  const outputRoot = resolve(opts.cwd, cfg.run.output);
  if (!opts.resume) checkOutputWritable(outputRoot);
  else if (existsSync(resolve(opts.cwd, opts.resume))) checkOutputWritable(resolve(opts.cwd, opts.resume), '--resume');
  await checkBenchmarkModules(benchmark);
  // An agent module that does not load, or whose factory returns no agent, is refused now (exit 2),
  // and its build is cached for the workers.
  const first = benchmark.samples.at(0);
  if (first && agentRef.module) {
    const context = loadCheckContext(benchmark.config, first);
    await onceAmong(opts.shared, `load\n${agentRef.module}\n${JSON.stringify(context)}`, () =>
      checkAgentModule(agentRef, context),
    );
  }
  await checkAgentOptions(agentRef, cfg.agent.options, { cwd: opts.cwd, datasetIds: benchmark.datasetIds });
  const agentId =
    cfg.agent.id ?? (agentRef.module ? basename(agentRef.module, extname(agentRef.module)) : agentRef.name);
  return { agentId, outputRoot };
}

/** What the agent's factory is called with at the load check: the first sample's context, without its trial. */
function loadCheckContext(cfg: Config, sample: Sample): LoadCheckContext {
  const sandbox = cfg.sandbox || sample.sandbox;
  return {
    sample: publicSample(sample),
    options: cfg.agent.options,
    sandbox: sandbox
      ? {
          image: sample.sandbox?.image ?? cfg.sandbox?.image ?? '',
          workdir: sample.sandbox?.workdir ?? cfg.sandbox?.workdir ?? '/workspace',
        }
      : null,
    maxLlmCalls: cfg.limits.max_llm_calls,
  };
}

async function moduleRecord(module: string, cwd: string): Promise<AgentModuleRecord> {
  const rel = relative(cwd, module);
  const shown = rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : module;
  return { module: shown, sha256: (await agentModuleHash(module)).sha256 };
}

/** The run's `[sandbox]` as a SandboxSpec, on the provider its keys and flags choose (sandbox/registry.ts). */
function sandboxOnProvider(benchmark: Benchmark<Samples>, opts: RunOptions): SandboxSpec | null {
  const cfg = benchmark.config;
  const sandbox = sandboxSpec(cfg);
  if (!sandbox || !cfg.sandbox) return null;
  const provider = resolveProvider({
    run: cfg.run,
    sandbox: cfg.sandbox,
    flags: opts.providerFlags ?? {},
    env: opts.env ?? process.env,
    benchmarkDir: benchmark.dir,
    trialTimeoutS: cfg.limits.trial_timeout_s,
  });
  return { ...sandbox, provider };
}

function sandboxSpec(cfg: Config): SandboxSpec | null {
  const s = cfg.sandbox;
  if (!s) return null;
  return {
    image: s.image,
    build: s.build,
    workdir: s.workdir,
    network: cfg.run.no_network ? 'none' : s.network,
    ...(s.build_network ? { buildNetwork: true } : {}),
    memory: s.memory,
    disk: s.disk,
    cpus: s.cpus,
    pids: s.pids,
    setup: s.setup,
    capAdd: s.cap_add,
    shared: null,
    execTimeoutMs: cfg.limits.exec_timeout_s * 1000,
    maxOutputBytes: cfg.limits.max_output_bytes,
    ...(s.subnet_pool ? { subnetPool: s.subnet_pool } : {}),
  };
}

/** What must not change between a run and its `--resume` (resume.ts). */
function runSettings(benchmark: Benchmark<Samples>, agentRef: AgentRef, trials: TrialPlan): RunSettings {
  const cfg = benchmark.config;
  return {
    benchmark_version: benchmark.version,
    agent: agentRef.module ?? agentRef.name,
    agent_options_hash: hashOf(cfg.agent.options),
    trials: cfg.n_trials,
    limits: cfg.limits,
    task_ids_hash: taskIdsHash(trials),
    user: cfg.user.kind,
    models: {
      agent: cfg.llm.model,
      user: cfg.user.llm?.model ?? cfg.llm.model,
      judge: cfg.judge.llm?.model ?? cfg.llm.model,
    },
  };
}
