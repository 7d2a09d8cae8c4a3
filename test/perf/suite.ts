// `npm run perf` (issue 8): benchrig measured against its floors — Docker's own container lifecycle
// and the model's own latency — in one process run, side by side, because this machine is shared
// and noisy. Prints a table and writes evals/perf/perf.json. Not part of `npm test`; its code is
// exercised at a tiny size by test/unit/perf/suite.test.ts.
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startModelServer, type ModelServer } from '../support/model-server.ts';
import { createFixtures, type Fixtures } from './fixtures.ts';
import { measureGatewayOverhead, type GatewaySizes } from './gateway.ts';
import { perTaskEnvRows, type EnvSizes } from './environments.ts';
import { swebenchGradingRow, type SwebenchSizes } from './swebench.ts';
import { measureGrading } from './grading.ts';
import { rawDockerLoop, removeByRun } from './docker-raw.ts';
import { runChild } from './run-child.ts';
import type { ChildReport, RunSpec } from './child.ts';
import { formatTable, type Row, type Stamp } from './table.ts';
import { judged, mergeRows, reportValues, type PreviousReport, type Target } from './merge.ts';
import {
  multiServiceBenchmark,
  rawMultiServiceLoop,
  removeRawMulti,
  sidecarSpec,
  type MultiServiceSizes,
} from './multi-service.ts';
import { runDistinctSamples } from './samples.ts';
import { jobVsSeparate, type JobSizes } from './jobs.ts';
import { transcriptBytesRow, type TranscriptSizes } from './transcripts.ts';
import { timeToFirstTrial, type StartupSizes } from './startup.ts';
import { PEER_FULL, type PeerSizes } from './peer-promptfoo.ts';
import { HARBOR_FULL, type HarborSizes } from './peer-harbor.ts';
import { measurePeers, PEER_TARGETS, PEERS, type Peer } from './peers.ts';
import { k8sTarget, measureK8sOverhead, type K8sSizes } from './kubernetes.ts';
import { measureMillion, type MillionSizes } from './million.ts';

export { PEER_TARGETS };

const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export interface Sizes {
  reps: number;
  sandbox: { trials: number; concurrency: number };
  scaling: { trials: number; calls: number; latencyMs: number; workers: number };
  overhead: { trials: number; inFlight: number; workers: number };
  /**
   * The memory runs: `trials` (10k) and `large` (100k) one-call trials over the same `samples`
   * (n_trials = trials / samples), threads; CPU per trial from the first.
   */
  rss: { trials: number; large: number; samples: number };
  grading: { results: number };
  gateway: GatewaySizes;
  /** A Harbor dataset over distinct build contexts, run twice (issue: published benchmarks). */
  envs: EnvSizes;
  /** SWE-bench predictions of the fixture graded, `concurrency` at a time (test/perf/swebench.ts). */
  swebench: SwebenchSizes;
  /** Two-service trials (main + a sidecar with a healthcheck), `concurrency` at a time (test/perf/multi-service.ts). */
  multi: MultiServiceSizes;
  /** Distinct samples × 1 trial through the CLI, peak RSS of the whole process (test/perf/samples.ts). */
  distinct: number;
  /** A 2 agents × 2 models job of `samples` one-call samples against the 50 ms model (test/perf/jobs.ts). */
  job: JobSizes;
  /** One-command trials on a Kubernetes cluster, `concurrency` at a time (`--k8s`; test/perf/kubernetes.ts). */
  k8s: K8sSizes;
  /** One trial's conversation of `calls` calls resending its history, `turnChars` a question and an answer (test/perf/transcripts.ts). */
  transcripts: TranscriptSizes;
  /** `benchrig run` of a one-sample benchmark, cold process to first trial (test/perf/startup.ts). */
  startup: StartupSizes;
  /** A million trials in one run: distinct samples × trials through the CLI (`--1m`; test/perf/million.ts). */
  million: MillionSizes;
}

export const FULL: Sizes = {
  reps: 3,
  sandbox: { trials: 40, concurrency: 4 },
  scaling: { trials: 64, calls: 4, latencyMs: 50, workers: 8 },
  overhead: { trials: 2000, inFlight: 8, workers: 2 },
  rss: { trials: 10_000, large: 100_000, samples: 1_000 },
  grading: { results: 20_000 },
  gateway: { trials: 16, calls: 50, reps: 5, latencyMs: 20, bodyKb: 40 },
  envs: { tasks: 20, contexts: 5 },
  swebench: { predictions: 50, concurrency: 4 },
  multi: { trials: 40, concurrency: 4 },
  distinct: 100_000,
  job: { samples: 200 },
  k8s: { trials: 20, concurrency: 4 },
  transcripts: { calls: 40, turnChars: 2048 },
  startup: { runs: 5 },
  million: { samples: 100_000, trials: 10 },
};

/** The same code paths at a size that runs in seconds (the unit test). */
export const TINY: Sizes = {
  reps: 1,
  sandbox: { trials: 2, concurrency: 2 },
  scaling: { trials: 4, calls: 2, latencyMs: 5, workers: 2 },
  overhead: { trials: 8, inFlight: 2, workers: 1 },
  rss: { trials: 12, large: 24, samples: 4 },
  grading: { results: 50 },
  gateway: { trials: 4, calls: 3, reps: 1, latencyMs: 2, bodyKb: 4 },
  envs: { tasks: 2, contexts: 1 },
  swebench: { predictions: 2, concurrency: 2 },
  multi: { trials: 2, concurrency: 2 },
  distinct: 20,
  job: { samples: 4 },
  k8s: { trials: 2, concurrency: 2 },
  transcripts: { calls: 4, turnChars: 2048 },
  startup: { runs: 1 },
  // a few shards' worth: the run folder is sharded as a million-trial run's is
  million: { samples: 20, trials: 3, shardAbove: 10 },
};

export const TARGETS = {
  // issue #41: sandboxes ready before they are needed (started ahead, removed in the background)
  sandbox_overhead_ratio: { max: 0.8 },
  multi_service_overhead_ratio: { max: 0.9 },
  'scaling_efficiency.threads': { min: 0.85 },
  'scaling_efficiency.processes': { min: 0.85 },
  overhead_ms_per_trial: { max: 2 },
  peak_rss_mb_10k: { max: 200 },
  grading_verdicts_per_s: { min: 100_000 },
  evaluate_10k_s: { max: 5 },
  gateway_overhead_ms: { max: 2 },
  builds_second_run: { max: 0 },
  per_task_env_ratio: { max: 1.2 },
  swebench_grading_ratio: { max: 1.15 },
  // issue 17: cost that does not grow with the run
  peak_rss_mb_100k: { max: 200 },
  rss_growth_kb_per_trial: { max: 0.2 },
  cpu_ms_per_trial: { max: 0.6 },
  evaluate_100k_s: { max: 10 },
  // issue 28: memory that does not grow with the number of distinct samples
  peak_rss_mb_100k_samples: { max: 200 },
  // issue 39: a job's cells share one pool
  job_vs_separate_wall: { max: 0.7 },
  // issue #37: a transcript linear in what was said (1.5 × a 2,048-character question and answer per call)
  result_bytes_per_call: { max: 1.5 * 2 * 2048 },
  // issue 41: a one-sample run's first trial, from a cold process
  time_to_first_trial_ms: { max: 600 },
} as const;

/** Only with `npm run perf -- --k8s` (a cluster: KUBECONFIG's, or the local one of scripts/k8s-up.sh). */
export const K8S_TARGETS = {
  k8s_overhead_ratio: { max: 1.15 },
} as const;

/** Only with `npm run perf -- --1m` (issue #41 item 3: a million trials in one run, ~15 minutes here). */
export const MILLION_TARGETS = {
  run_1m_wall_s: { max: 600 },
  peak_rss_mb_1m: { max: 256 },
  evaluate_1m_s: { max: 60 },
} as const;

type Key = keyof typeof TARGETS | keyof typeof PEER_TARGETS | keyof typeof K8S_TARGETS | keyof typeof MILLION_TARGETS;
/** Every row the suite has, in the order perf.json and the table list them. */
const ALL_TARGETS: Record<Key, Target> = { ...TARGETS, ...MILLION_TARGETS, ...K8S_TARGETS, ...PEER_TARGETS };

export interface PerfReport {
  schema_version: 1;
  /** The run that wrote the file: when it ended, its commit, the machine, its load and sizes. */
  created_at: string;
  commit: string | null;
  dirty: boolean | null;
  cpus: number;
  cpu_model: string;
  node: string;
  load_average: { start: number[]; end: number[] };
  sizes: Sizes;
  /**
   * Per key: its target, whether it was met, the raw figures it was computed from and when it was
   * measured (`measured`; `carried_over` when by an earlier run: test/perf/merge.ts).
   */
  rows: Record<string, Row>;
  /** Each row's value by its key (`scaling_efficiency.threads` under `scaling_efficiency`), null without a number. */
  [key: string]: unknown;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** A row with its number (a skipped row has none). */
type Measured = Row & { value: number };

function row(key: Key, value: number, raw: Record<string, unknown>): Measured {
  return { key, value, ...judged(ALL_TARGETS[key], value), raw, measured: stamp() };
}

/** A row that could not be measured here: no value, the reason recorded (and not met). */
function skippedRow(key: Key, reason: string): Row {
  return { ...row(key, Number.NaN, { skipped: reason }), value: null, met: false, skipped: reason };
}

function gitInfo(): { commit: string | null; dirty: boolean | null } {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
    const dirty =
      execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
        cwd: REPO,
        stdio: ['ignore', 'pipe', 'ignore'],
      })
        .toString()
        .trim() !== '';
    return { commit, dirty };
  } catch {
    return { commit: null, dirty: null };
  }
}

/** When a row was measured: now, the checkout's commit, the load average (the table and merge.ts read it). */
function stamp(): Stamp {
  return { at: new Date().toISOString(), ...gitInfo(), load_average: loadavg() };
}

export interface Ctx {
  fx: Fixtures;
  root: string;
  say: (line: string) => void;
  model: ModelServer;
  latencyMs: number;
}

/** One `benchrig run` in a child process against the loopback model. */
function run(ctx: Ctx, s: Omit<RunSpec, 'cwd' | 'output' | 'modelUrl'>): Promise<ChildReport> {
  return runChild({ ...s, cwd: ctx.root, output: join(ctx.root, 'evals'), modelUrl: ctx.model.url });
}

const summary = (r: ChildReport) => ({
  wall_ms: Math.round(r.wall_ms),
  schedule_ms: Math.round(r.schedule_ms),
  settled_ms: Math.round(r.settled_ms),
  cpu_ms: Math.round(r.cpu_ms),
  peak_rss_mb: Math.round(r.peak_rss_mb),
  n_trials: r.n_trials,
  n_passed: r.n_passed,
});

function expectAll(r: ChildReport, n: number, what: string): void {
  if (r.n_trials !== n || r.n_passed !== n)
    throw new Error(`${what}: ${r.n_passed}/${r.n_trials} of ${n} trials passed: ${JSON.stringify(r.status_counts)}`);
}

/**
 * `--max-sandboxes` of the sandbox rows' runs, per lane: the trial's own environment, the next
 * trial's started ahead of it and the last one's being removed (docs/running.md#sandboxes-ready-before-they-are-needed).
 * The raw loops hold one per lane: the floor is Docker's own lifecycle one after the other.
 */
export const SANDBOXES_PER_LANE = 3;

/**
 * Sandbox overhead: the run from the pool being ready to its summary (every trial's container
 * created, started, exec'd and removed — the pool's close awaits the removals it runs in the
 * background — plus benchrig's own work around them, its sweep and report) over the raw dockerode
 * loop of the same 40 cycles at the same concurrency. Not compared: the run's one-off start-up
 * before the pool is ready (config, Docker ping, image check, sweep) — the raw loop has none either.
 * Alternated, so that both sides see the same machine load.
 */
export async function sandboxRow(ctx: Ctx, z: Sizes, perLane = SANDBOXES_PER_LANE): Promise<Measured> {
  const { trials, concurrency } = z.sandbox;
  const bench = ctx.fx.sandboxBenchmark(trials);
  const rawRun = `perf-raw-${process.pid}-${Date.now().toString(36)}`;
  const spec = {
    benchmark: bench,
    agent: ctx.fx.agents.sandboxEcho,
    mode: 'threads' as const,
    workers: concurrency,
    perWorker: 1,
    maxSandboxes: perLane * concurrency,
  };
  const harness: number[] = [];
  const raw: number[] = [];
  const runs: ReturnType<typeof summary>[] = [];
  try {
    await rawDockerLoop(Math.min(concurrency, trials), concurrency, rawRun); // warm-up: image and daemon caches
    for (let i = 0; i < z.reps; i++) {
      const r = await run(ctx, spec);
      expectAll(r, trials, 'sandbox run');
      harness.push(r.settled_ms);
      runs.push(summary(r));
      const rawMs = await rawDockerLoop(trials, concurrency, rawRun);
      raw.push(rawMs);
      ctx.say(
        `  sandbox rep ${i + 1}: benchrig ${Math.round(r.settled_ms)} ms (last result ${Math.round(r.schedule_ms)}), raw dockerode ${Math.round(rawMs)} ms`,
      );
    }
  } finally {
    await removeByRun(rawRun);
  }
  const value = median(harness) / median(raw);
  return row('sandbox_overhead_ratio', value, {
    trials,
    concurrency,
    max_sandboxes: perLane * concurrency,
    compared:
      'pool ready → summary of `benchrig run` (threads, workers = concurrency, --max-sandboxes 3 per lane) vs raw dockerode create→start→exec→remove per lane',
    benchrig_schedule_ms: harness.map(Math.round),
    raw_dockerode_ms: raw.map(Math.round),
    benchrig_median_ms: Math.round(median(harness)),
    raw_median_ms: Math.round(median(raw)),
    runs,
  });
}

/**
 * Context for the scaling rows (not part of their value): the median round trip of one bare
 * node:http request to the loopback model at its latency, one at a time. On a loaded 2-core machine
 * a 50 ms timer alone fires a few ms late, so this floor sits above the model's nominal latency.
 */
async function loopbackCallMs(ctx: Ctx, n = 20): Promise<number> {
  const agent = new http.Agent({ keepAlive: true });
  const body = JSON.stringify({ model: 'perf-model', messages: [{ role: 'user', content: 'ping' }] });
  const times: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await new Promise<void>((resolve, reject) => {
        const req = http.request(
          `${ctx.model.url}/chat/completions`,
          {
            method: 'POST',
            agent,
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            res.resume();
            res.on('end', resolve);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
      times.push(performance.now() - t0);
    }
  } finally {
    agent.destroy();
  }
  return median(times);
}

/** Scaling: ideal = trials × calls × latency / (workers × 1 per worker), over the scheduling phase. */
async function scalingRows(ctx: Ctx, z: Sizes): Promise<Record<'threads' | 'processes', Measured>> {
  const { trials, calls, latencyMs, workers } = z.scaling;
  const ideal = (trials * calls * latencyMs) / workers;
  const bench = ctx.fx.localBenchmark(trials);
  ctx.latencyMs = latencyMs;
  const out = {} as Record<'threads' | 'processes', Measured>;
  try {
    const floor = await loopbackCallMs(ctx);
    ctx.say(`  scaling: a bare loopback call at ${latencyMs} ms latency takes ${floor.toFixed(1)} ms`);
    for (const mode of ['threads', 'processes'] as const) {
      const times: number[] = [];
      const runs: ReturnType<typeof summary>[] = [];
      for (let i = 0; i < z.reps; i++) {
        const r = await run(ctx, { benchmark: bench, agent: ctx.fx.agents.fourCalls, mode, workers, perWorker: 1 });
        expectAll(r, trials, `scaling (${mode})`);
        times.push(r.schedule_ms);
        runs.push(summary(r));
      }
      const value = ideal / median(times);
      ctx.say(`  scaling ${mode}: ideal ${ideal} ms, actual ${times.map(Math.round).join(', ')} ms`);
      out[mode] = row(`scaling_efficiency.${mode}`, value, {
        trials,
        calls_per_trial: calls,
        latency_ms: latencyMs,
        workers,
        per_worker: 1,
        ideal_ms: ideal,
        schedule_ms: times.map(Math.round),
        median_ms: Math.round(median(times)),
        runs,
        loopback_call_ms: Math.round(floor * 10) / 10,
        note: 'loopback_call_ms: a bare node:http call to the same model, one at a time (context only; the ideal uses latency_ms)',
      });
    }
  } finally {
    ctx.latencyMs = 0;
  }
  return out;
}

/** Overhead per trial, threads (the key) and the other two modes (recorded). */
async function overheadRow(ctx: Ctx, z: Sizes): Promise<Measured> {
  const { trials, inFlight, workers } = z.overhead;
  const bench = ctx.fx.localBenchmark(trials);
  const modes: Record<string, unknown> = {};
  let threads = NaN;
  for (const mode of ['threads', 'processes', 'single'] as const) {
    const r = await run(ctx, {
      benchmark: bench,
      agent: ctx.fx.agents.oneCall,
      mode,
      workers,
      perWorker: Math.max(1, inFlight / workers),
    });
    expectAll(r, trials, `overhead (${mode})`);
    const perTrial = r.schedule_ms / trials;
    if (mode === 'threads') threads = perTrial;
    modes[mode] = {
      ms_per_trial: perTrial,
      wall_ms_per_trial: r.wall_ms / trials,
      cpu_ms_per_trial: r.cpu_ms / trials,
      in_flight: mode === 'single' ? 1 : inFlight,
      ...summary(r),
    };
    ctx.say(`  overhead ${mode}: ${perTrial.toFixed(2)} ms/trial (whole run ${(r.wall_ms / trials).toFixed(2)})`);
  }
  return row('overhead_ms_per_trial', threads, {
    trials,
    in_flight: inFlight,
    workers,
    per_worker: inFlight / workers,
    measured: 'scheduling phase (pool ready → last result) / trials; wall_ms_per_trial adds start-up and the report',
    modes,
  });
}

interface MemoryRows {
  rss10k: Measured;
  rss100k: Measured;
  growth: Measured;
  cpu: Measured;
  runDir10k: string;
  runDir100k: string;
}

/**
 * The memory and CPU rows (issue 17): two one-call runs, `threads` 2 × 4, instant model, result
 * files, report and report.html written: peak RSS of each, the growth between them per trial,
 * and CPU time (every thread, user + system) per trial of the smaller one.
 */
async function memoryRows(ctx: Ctx, z: Sizes): Promise<MemoryRows> {
  const { trials, large, samples } = z.rss;
  const { inFlight, workers } = z.overhead;
  const one = async (n: number) => {
    const r = await run(ctx, {
      benchmark: ctx.fx.localBenchmark(samples),
      trials: n / samples,
      agent: ctx.fx.agents.oneCall,
      mode: 'threads',
      workers,
      perWorker: Math.max(1, inFlight / workers),
    });
    expectAll(r, n, `rss run (${n})`);
    ctx.say(`  rss: ${r.peak_rss_mb.toFixed(0)} MB peak over ${n} trials, ${(r.cpu_ms / n).toFixed(3)} ms CPU a trial`);
    return r;
  };
  // CPU time is the noisiest figure on a shared machine (the file system's state alone moves system
  // time by a third from one run to the next): the median of three runs of the smaller size.
  const smalls = [await one(trials)];
  for (let i = 1; i < Math.max(1, Math.min(3, z.reps)); i++) smalls.push(await one(trials));
  const small = smalls.slice().sort((a, b) => a.cpu_ms - b.cpu_ms)[Math.floor((smalls.length - 1) / 2)];
  const big = await one(large);
  const base = {
    samples,
    mode: 'threads',
    workers,
    in_flight: inFlight,
    measured: 'getrusage maxRSS of the run process (all threads); the same samples, n_trials = trials / samples',
  };
  const growth = ((big.peak_rss_mb - small.peak_rss_mb) * 1024) / (large - trials);
  return {
    rss10k: row('peak_rss_mb_10k', small.peak_rss_mb, { trials, ...base, ...summary(small) }),
    rss100k: row('peak_rss_mb_100k', big.peak_rss_mb, { trials: large, ...base, ...summary(big) }),
    growth: row('rss_growth_kb_per_trial', growth, {
      small: trials,
      large,
      peak_rss_mb: [small.peak_rss_mb, big.peak_rss_mb].map((x) => Math.round(x * 10) / 10),
      measured: '(peak RSS at large − at small) / (large − small), KiB',
    }),
    cpu: row('cpu_ms_per_trial', small.cpu_ms / trials, {
      trials,
      cpu_ms: Math.round(small.cpu_ms),
      user_ms: Math.round(small.user_ms),
      sys_ms: Math.round(small.sys_ms),
      wall_ms: Math.round(small.wall_ms),
      runs_cpu_ms_per_trial: smalls.map((r) => Math.round((r.cpu_ms / trials) * 1000) / 1000),
      large_cpu_ms_per_trial: big.cpu_ms / large,
      measured:
        'process.cpuUsage of the run process (every thread, user + system) / trials, start-up and report included; the median of the runs',
    }),
    runDir10k: small.run_dir,
    runDir100k: big.run_dir,
  };
}

async function gradingRow(ctx: Ctx, z: Sizes): Promise<Measured> {
  await measureGrading(Math.min(1000, z.grading.results)); // warm-up: JIT
  const reps = [];
  for (let i = 0; i < Math.max(3, z.reps); i++) reps.push(await measureGrading(z.grading.results));
  const value = median(reps.map((r) => r.verdicts_per_s));
  ctx.say(`  grading: ${reps.map((r) => Math.round(r.verdicts_per_s)).join(', ')} verdicts/s`);
  return row('grading_verdicts_per_s', value, {
    results: z.grading.results,
    checks: reps[0].checks,
    verdicts_per_rep: reps[0].verdicts,
    verdicts_per_s: reps.map((r) => Math.round(r.verdicts_per_s)),
    verdicts_per_cpu_s: reps.map((r) => Math.round(r.verdicts_per_cpu_s)),
  });
}

/** `benchrig evaluate RUN_DIR` through the CLI, on the 10k run: the whole command, start-up included. */
async function evaluateRow(
  ctx: Ctx,
  runDir: string,
  n: number,
  z: Sizes,
  key: 'evaluate_10k_s' | 'evaluate_100k_s' = 'evaluate_10k_s',
  reps = Math.max(1, Math.min(3, z.reps)),
): Promise<Measured> {
  const times: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    execFileSync(process.execPath, [join(REPO, 'bin/benchrig.mjs'), 'evaluate', runDir], {
      cwd: ctx.root,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    times.push((performance.now() - t0) / 1000);
  }
  ctx.say(`  evaluate: ${times.map((t) => t.toFixed(2)).join(', ')} s for ${n} results`);
  return row(key, median(times), {
    results: n,
    seconds: times,
    measured: '`benchrig evaluate RUN_DIR` as a child process, start-up included',
  });
}

/** The model gateway's added latency per call (issue 15), whole and streamed; the larger is the value. */
async function gatewayRow(ctx: Ctx, z: Sizes): Promise<Measured> {
  const r = await measureGatewayOverhead(z.gateway, ctx.say);
  return row('gateway_overhead_ms', r.value, r.raw);
}

export interface SuiteOptions {
  sizes?: Sizes;
  /** Where perf.json goes; null: not written. */
  out?: string | null;
  say?: (line: string) => void;
  /**
   * `--peer promptfoo|inspect|harbor|all`: the peers' rows too (each peer installed once into the
   * peers' cache folder, outside the repository; test/perf/peers.ts).
   */
  peer?: Peer;
  peerSizes?: PeerSizes;
  harborSizes?: HarborSizes;
  /**
   * `--peers-only`: measure the peers' rows (or `--k8s`'s) alone. Whatever a run measures, the rows
   * it does not measure are kept from the perf.json already at `out`, marked carried over (merge.ts).
   */
  peersOnly?: boolean;
  /** `--k8s`: the Kubernetes row too, on KUBECONFIG's cluster or the local one; skipped with the reason when none answers. */
  k8s?: boolean;
  /** `--1m`: the million-trial rows (test/perf/million.ts) alone. */
  million?: boolean;
}

/** The three rows of a million trials in one run (`--1m`). */
async function millionRows(ctx: Ctx, z: Sizes): Promise<Record<keyof typeof MILLION_TARGETS, Measured>> {
  const m = await measureMillion(z.million, {
    benchmark: ctx.fx.localBenchmark(z.million.samples),
    root: ctx.root,
    modelUrl: ctx.model.url,
    say: ctx.say,
  });
  return {
    run_1m_wall_s: row('run_1m_wall_s', m.run_1m_wall_s, m.raw),
    peak_rss_mb_1m: row('peak_rss_mb_1m', m.peak_rss_mb_1m, m.raw),
    evaluate_1m_s: row('evaluate_1m_s', m.evaluate_1m_s, m.raw),
  };
}

/**
 * Kubernetes overhead (`--k8s`): the scheduling phase of a run of one-command trials on the cluster
 * over raw client-node calls making the same objects (test/perf/kubernetes.ts); skipped, with the
 * reason, when no cluster answers.
 */
async function k8sRow(ctx: Ctx, z: Sizes): Promise<Row> {
  const target = await k8sTarget();
  if ('skipped' in target) {
    ctx.say(`  k8s: skipped: ${target.skipped}`);
    return skippedRow('k8s_overhead_ratio', target.skipped);
  }
  const m = await measureK8sOverhead({
    target,
    sizes: z.k8s,
    reps: z.reps,
    benchmark: ctx.fx.sandboxBenchmark(z.k8s.trials),
    agent: ctx.fx.agents.sandboxEcho,
    runBenchrig: (spec) => run(ctx, spec),
    say: ctx.say,
  });
  return row('k8s_overhead_ratio', m.value, m.raw);
}

/**
 * Multi-service overhead: pool ready → summary (as the sandbox row) of a run of two-service trials (main waits for its
 * sidecar's healthcheck; the echo agent) over the raw dockerode loop doing the same Docker work —
 * network, sidecar, health wait, main, exec, removals — at the same concurrency. Alternated, as the
 * sandbox row, so that both sides see the same machine load.
 */
export async function multiServiceRow(ctx: Ctx, z: Sizes, perLane = SANDBOXES_PER_LANE): Promise<Measured> {
  const { trials, concurrency } = z.multi;
  const bench = multiServiceBenchmark(ctx.root, trials);
  const side = await sidecarSpec(bench);
  const rawRun = `perf-multi-${process.pid}-${Date.now().toString(36)}`;
  const spec = {
    benchmark: bench,
    agent: ctx.fx.agents.sandboxEcho,
    mode: 'threads' as const,
    workers: concurrency,
    perWorker: 1,
    maxSandboxes: perLane * concurrency,
  };
  const harness: number[] = [];
  const raw: number[] = [];
  const runs: ReturnType<typeof summary>[] = [];
  try {
    await rawMultiServiceLoop(Math.min(concurrency, trials), concurrency, rawRun, side); // warm-up
    for (let i = 0; i < z.reps; i++) {
      const r = await run(ctx, spec);
      expectAll(r, trials, 'multi-service run');
      harness.push(r.settled_ms);
      runs.push(summary(r));
      const rawMs = await rawMultiServiceLoop(trials, concurrency, rawRun, side);
      raw.push(rawMs);
      ctx.say(
        `  multi-service rep ${i + 1}: benchrig ${Math.round(r.settled_ms)} ms (last result ${Math.round(r.schedule_ms)}), raw dockerode ${Math.round(rawMs)} ms`,
      );
    }
  } finally {
    await removeRawMulti(rawRun);
  }
  return row('multi_service_overhead_ratio', median(harness) / median(raw), {
    trials,
    concurrency,
    max_sandboxes: perLane * concurrency,
    compared:
      'pool ready → summary of `benchrig run` (threads, workers = concurrency, --max-sandboxes 3 per lane; main depends_on a sidecar service_healthy) vs raw dockerode network→sidecar→health wait→main→exec→removals per lane',
    healthcheck: 'CMD-SHELL test -f /tmp/ready, interval 0.5 s',
    benchrig_schedule_ms: harness.map(Math.round),
    raw_dockerode_ms: raw.map(Math.round),
    benchrig_median_ms: Math.round(median(harness)),
    raw_median_ms: Math.round(median(raw)),
    runs,
  });
}

/** `job_vs_separate_wall` (issue 39): the job's wall time over its four runs' one after the other, a 50 ms model. */
async function jobRow(ctx: Ctx, z: Sizes): Promise<Measured> {
  ctx.latencyMs = z === TINY ? 0 : 50;
  try {
    const r = await jobVsSeparate(
      ctx.root,
      ctx.fx.localBenchmark(z.job.samples),
      ctx.fx.agents.oneCall,
      ctx.model.url,
      ctx.say,
    );
    return row('job_vs_separate_wall', r.value, { ...r.raw, samples: z.job.samples, latency_ms: ctx.latencyMs });
  } finally {
    ctx.latencyMs = 0;
  }
}

/** `peak_rss_mb_100k_samples` (issue 28): z.distinct samples × 1 trial, `benchrig run` under GNU time. */
async function distinctSamplesRow(ctx: Ctx, z: Sizes): Promise<Measured> {
  const r = await runDistinctSamples(ctx.fx.localBenchmark(z.distinct), ctx.root, ctx.model.url);
  if (r.n_trials !== z.distinct || r.n_passed !== z.distinct)
    throw new Error(`distinct samples run: ${r.n_passed}/${r.n_trials} of ${z.distinct} trials passed`);
  ctx.say(`  distinct samples: ${r.peak_rss_mb.toFixed(0)} MB peak over ${z.distinct} samples × 1 trial`);
  return row('peak_rss_mb_100k_samples', r.peak_rss_mb, {
    samples: z.distinct,
    trials: 1,
    ...r,
    command: `benchrig run <${z.distinct} samples> --agent react --mode threads --workers 2 --per-worker 4`,
    measured:
      'GNU time maximum resident set size of the whole CLI process (all threads), MiB; instant loopback model, one `contains` check',
  });
}

/** `result_bytes_per_call` (issue #37): one trial's transcript per model call (test/perf/transcripts.ts). */
async function transcriptRow(ctx: Ctx, z: Sizes): Promise<Measured> {
  const r = await transcriptBytesRow(ctx.root, ctx.fx.localBenchmark(1), z.transcripts);
  ctx.say(
    `  transcripts: ${Math.round(r.value)} bytes a call (${String(r.raw.ratio_to_distinct_text)}× the distinct text)`,
  );
  return row('result_bytes_per_call', r.value, r.raw);
}

/** `time_to_first_trial_ms` (issue 41): `benchrig run` of one sample, spawn → first model request (test/perf/startup.ts). */
async function startupRow(ctx: Ctx, z: Sizes): Promise<Measured> {
  const r = await timeToFirstTrial(ctx.root, z.startup, ctx.say);
  return row('time_to_first_trial_ms', r.value, r.raw);
}

/** Every row against benchrig's own floors (a plain `npm run perf`). */
async function floorRows(ctx: Ctx, z: Sizes): Promise<Record<string, Row>> {
  const say = ctx.say;
  say('warm-up: one small run per mode');
  for (const mode of ['threads', 'processes'] as const)
    await run(ctx, {
      benchmark: ctx.fx.localBenchmark(8),
      agent: ctx.fx.agents.oneCall,
      mode,
      workers: 2,
      perWorker: 1,
    });
  say('time to first trial');
  const startup = await startupRow(ctx, z);
  say('sandbox overhead');
  const sandbox = await sandboxRow(ctx, z);
  say('multi-service overhead');
  const multi = await multiServiceRow(ctx, z);
  say('scaling');
  const scaling = await scalingRows(ctx, z);
  say('overhead per trial');
  const overhead = await overheadRow(ctx, z);
  say('peak memory and CPU per trial');
  const mem = await memoryRows(ctx, z);
  say('peak memory over distinct samples');
  const distinct = await distinctSamplesRow(ctx, z);
  say('a job against its runs one by one');
  const job = await jobRow(ctx, z);
  say('transcript bytes per call');
  const transcripts = await transcriptRow(ctx, z);
  say('grading');
  const grading = await gradingRow(ctx, z);
  say('evaluate');
  const evaluate = await evaluateRow(ctx, mem.runDir10k, z.rss.trials, z);
  const evaluate100k = await evaluateRow(ctx, mem.runDir100k, z.rss.large, z, 'evaluate_100k_s', 1);
  say('model gateway');
  const gateway = await gatewayRow(ctx, z);
  say('per-task environments');
  const envs = await perTaskEnvRows(ctx.root, z.envs, say);
  const builds = row('builds_second_run', envs.builds_second_run.value, envs.builds_second_run.raw);
  const envRatio = row('per_task_env_ratio', envs.per_task_env_ratio.value, envs.per_task_env_ratio.raw);
  say('swebench grading');
  const swe = await swebenchGradingRow(ctx.root, z.swebench, z.reps, say);
  const sweRow = row('swebench_grading_ratio', swe.value, swe.raw);
  return {
    swebench_grading_ratio: sweRow,
    builds_second_run: builds,
    per_task_env_ratio: envRatio,
    sandbox_overhead_ratio: sandbox,
    multi_service_overhead_ratio: multi,
    'scaling_efficiency.threads': scaling.threads,
    'scaling_efficiency.processes': scaling.processes,
    overhead_ms_per_trial: overhead,
    peak_rss_mb_10k: mem.rss10k,
    grading_verdicts_per_s: grading,
    evaluate_10k_s: evaluate,
    gateway_overhead_ms: gateway,
    peak_rss_mb_100k: mem.rss100k,
    rss_growth_kb_per_trial: mem.growth,
    cpu_ms_per_trial: mem.cpu,
    evaluate_100k_s: evaluate100k,
    peak_rss_mb_100k_samples: distinct,
    job_vs_separate_wall: job,
    result_bytes_per_call: transcripts,
    time_to_first_trial_ms: startup,
  };
}

/** The perf.json a run merges into: the one at `out`, or nothing. */
function previousReport(out: string): PreviousReport | null {
  if (!existsSync(out)) return null;
  try {
    const parsed: unknown = JSON.parse(readFileSync(out, 'utf8'));
    return parsed && typeof parsed === 'object' ? parsed : null;
  } catch {
    return null;
  }
}

function writeReport(out: string, report: PerfReport): void {
  mkdirSync(dirname(out), { recursive: true });
  const tmp = `${out}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(report, null, 2) + '\n');
  renameSync(tmp, out);
}

/** The report: this run's header, the rows it measured over those of the perf.json already there (merge.ts). */
function reportOf(
  previous: PreviousReport | null,
  measured: Record<string, Row>,
  z: Sizes,
  start: number[],
): PerfReport {
  const rows = mergeRows(previous, measured, ALL_TARGETS);
  return {
    schema_version: 1,
    created_at: new Date().toISOString(),
    ...gitInfo(),
    cpus: availableParallelism(),
    cpu_model: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    load_average: { start, end: loadavg() },
    sizes: z,
    ...reportValues(rows),
    rows,
  };
}

export async function runPerfSuite(opts: SuiteOptions = {}): Promise<PerfReport> {
  const z = opts.sizes ?? FULL;
  const say = opts.say ?? ((line: string) => process.stderr.write(line + '\n'));
  const out = opts.out === null ? null : (opts.out ?? join(REPO, 'evals/perf/perf.json'));
  if (opts.peersOnly && !opts.peer && !opts.k8s) throw new Error('--peers-only needs --peer or --k8s');
  const root = mkdtempSync(join(tmpdir(), 'benchrig-perf-'));
  const start = loadavg();
  const ctx: Ctx = { fx: createFixtures(root), root, say, latencyMs: 0, model: undefined as unknown as ModelServer };
  // What this run measured. Written as each part ends, merged each time over the perf.json there
  // then (read again: another run may have written its rows meanwhile), so that a long run stopped
  // later keeps what it measured.
  const measured: Record<string, Row> = {};
  const record = (rows: Record<string, Row>) => {
    Object.assign(measured, rows);
    if (out) writeReport(out, reportOf(previousReport(out), measured, z, start));
  };
  // One loopback model for every row; its latency is the row's (0: instant).
  ctx.model = await startModelServer(() => ({ content: 'pong', delayMs: ctx.latencyMs || undefined }));
  try {
    if (!opts.peersOnly && !opts.million) record(await floorRows(ctx, z));
    if (opts.peer)
      await measurePeers(
        opts.peer,
        { fx: ctx.fx, root, modelUrl: ctx.model.url, say },
        opts.peerSizes ?? PEER_FULL,
        opts.harborSizes ?? HARBOR_FULL,
        (rows) => record(Object.fromEntries(rows.map((m) => [m.key, row(m.key, m.value, m.raw)]))),
      );
    if (opts.k8s) {
      say('kubernetes (--k8s)');
      record({ k8s_overhead_ratio: await k8sRow(ctx, z) });
    }
    if (opts.million) {
      say('a million trials in one run (--1m)');
      record(await millionRows(ctx, z));
    }
    return reportOf(out ? previousReport(out) : null, measured, z, start);
  } finally {
    await ctx.model.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** Whether every row this run measured met its target (the exit code; a carried-over row is not judged again here). */
const measuredRowsMet = (report: PerfReport) => Object.values(report.rows).every((r) => r.carried_over || r.met);

// `npm run perf [-- --peer promptfoo|inspect|harbor|all] [--k8s] [--peers-only] [--docker-rounds N] [--1m]`
// (`--peers-only`: the comparisons asked for alone; `--1m`: the million-trial rows alone; every run
// keeps the rows it did not measure from the perf.json already there, marked carried over: merge.ts)
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const peerAt = args.indexOf('--peer');
  const peer = peerAt >= 0 ? args[peerAt + 1] : undefined;
  if (peer !== undefined && !(PEERS as readonly string[]).includes(peer)) {
    process.stderr.write(`npm run perf: --peer takes one of ${PEERS.join(', ')}, not ${JSON.stringify(peer)}\n`);
    process.exit(2);
  }
  const peersOnly = args.includes('--peers-only');
  if (peersOnly && peer === undefined && !args.includes('--k8s')) {
    process.stderr.write(`npm run perf: --peers-only needs --peer ${PEERS.join('|')} or --k8s\n`);
    process.exit(2);
  }
  // `--docker-rounds N`: fewer rounds for the container comparisons (Harbor, Inspect's sandbox) on a busy machine.
  const roundsAt = args.indexOf('--docker-rounds');
  const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : HARBOR_FULL.rounds;
  if (!Number.isInteger(rounds) || rounds < 1) {
    process.stderr.write('npm run perf: --docker-rounds takes a whole number of rounds, 1 or more\n');
    process.exit(2);
  }
  const known = new Set(['--peer', '--peers-only', '--docker-rounds', '--k8s', '--1m']);
  const unknown = args.filter(
    (a, i) => !known.has(a) && !((i === peerAt + 1 && peerAt >= 0) || (i === roundsAt + 1 && roundsAt >= 0)),
  );
  if (unknown.length) {
    process.stderr.write(
      `npm run perf: unknown argument ${JSON.stringify(unknown[0])} (it takes --peer ${PEERS.join('|')}, --peers-only, --docker-rounds N, --k8s and --1m)\n`,
    );
    process.exit(2);
  }
  const report = await runPerfSuite({
    peer: peer as Peer | undefined,
    peersOnly,
    harborSizes: { ...HARBOR_FULL, rounds },
    k8s: args.includes('--k8s'),
    million: args.includes('--1m'),
  });
  process.stdout.write(formatTable(report) + '\n');
  process.exitCode = measuredRowsMet(report) ? 0 : 1;
}
