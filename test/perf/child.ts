// One `benchrig run` in a process of its own, so that its peak memory and CPU are its own and not
// the suite's (the loopback model runs in the suite's process). Drives runBenchmark, the function
// behind the CLI's `run`, with a silent console that timestamps the scheduling phase.
// Usage (run-child.ts compiles it first): node --import bin/heap.mjs <compiled child.mjs> '<json RunSpec>'
// (the heap's flags set first, as bin/benchrig.mjs does); prints one JSON line (ChildReport).
import { runBenchmark } from '../../src/run/orchestrator.ts';
import { silentConsole, type RunConsole } from '../../src/run/console.ts';

export interface RunSpec {
  benchmark: string;
  cwd: string;
  agent: string;
  mode: 'single' | 'threads' | 'processes';
  /** Absent (with perWorker): the run picks its layout (docs/running.md#layout). */
  workers?: number;
  perWorker?: number;
  maxSandboxes?: number;
  /** Trials per sample (`n_trials`); default 1. */
  trials?: number;
  output: string;
  modelUrl: string;
  /** `--agent-opt` (the predictions agent's file). */
  agentOptions?: Record<string, unknown>;
  /** `[run] transcripts` (default full): "metadata" to measure a row without them. */
  transcripts?: 'full' | 'metadata';
  /** `[run] provider = "kubernetes"` and its keys; the kubeconfig becomes the run's KUBECONFIG. */
  provider?: { provider: 'kubernetes'; namespace: string; registry: string; kubeconfig: string };
}

export interface ChildReport {
  /** The whole runBenchmark call: validation, run folder, pool start, trials, report. */
  wall_ms: number;
  /** From the pool being ready (console.start) to the last trial's result. */
  schedule_ms: number;
  /** CPU time of this process (every thread), user + system: steadier than wall time on a busy machine. */
  cpu_ms: number;
  /** The user and system parts of cpu_ms: system time is mostly the file system (result and log files). */
  user_ms: number;
  sys_ms: number;
  /** Peak resident memory of this process (threads included), from getrusage. */
  peak_rss_mb: number;
  n_trials: number;
  n_passed: number;
  status_counts: Record<string, number>;
  run_dir: string;
  run_id: string;
}

const spec = JSON.parse(process.argv[2]) as RunSpec;
const kube = spec.provider;
if (kube) process.env.KUBECONFIG = kube.kubeconfig;
let t0 = 0;
let tLast = 0;
const quiet: RunConsole = {
  ...silentConsole,
  start: () => void (t0 = performance.now()),
  trialFinished: () => void (tLast = performance.now()),
};
const start = performance.now();
const out = await runBenchmark({
  benchmark: spec.benchmark,
  cwd: spec.cwd,
  env: { ...process.env, OPENAI_API_KEY: 'sk-perf' },
  flags: {
    ...(spec.trials ? { n_trials: spec.trials } : {}),
    agent: { name: spec.agent, ...(spec.agentOptions ? { options: spec.agentOptions } : {}) },
    llm: { base_url: spec.modelUrl, model: 'perf-model', max_retries: 0 },
    run: {
      mode: spec.mode,
      ...(spec.workers !== undefined ? { workers: spec.workers } : {}),
      ...(spec.perWorker !== undefined ? { per_worker: spec.perWorker } : {}),
      output: spec.output,
      ...(spec.maxSandboxes ? { max_sandboxes: spec.maxSandboxes } : {}),
      ...(spec.transcripts ? { transcripts: spec.transcripts } : {}),
      ...(kube ? { provider: kube.provider, namespace: kube.namespace, registry: kube.registry } : {}),
    },
  },
  console: quiet,
  signal: new AbortController().signal,
});
const wall = performance.now() - start;
const cpu = process.cpuUsage();
const report: ChildReport = {
  wall_ms: wall,
  schedule_ms: tLast - t0,
  cpu_ms: (cpu.user + cpu.system) / 1000,
  user_ms: cpu.user / 1000,
  sys_ms: cpu.system / 1000,
  peak_rss_mb: process.resourceUsage().maxRSS / 1024,
  n_trials: out.report.metrics.n_trials,
  n_passed: out.report.metrics.n_passed,
  status_counts: out.report.metrics.status_counts,
  run_dir: out.runDir,
  run_id: out.report.run.id,
};
process.stdout.write(JSON.stringify(report) + '\n');
process.exit(0);
