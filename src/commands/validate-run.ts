// `benchrig validate BENCH --run` (docs/cli.md): prove a benchmark grades what it claims. The `oracle`
// (the reference solutions) must pass every sample and `nop` (an empty reply) must pass none. Both
// run one trial per sample in `single` mode into a temporary output folder, removed afterwards.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BenchrigError } from '../errors.ts';
import { readResults } from '../report/aggregate.ts';
import type { TrialStatus } from '../types.ts';
import { silentConsole, type RunConsole } from '../run/console.ts';
import { runBenchmark } from '../run/orchestrator.ts';

export interface Breach {
  sample_id: string;
  status: TrialStatus;
  reason: string;
}

interface ValidateRunOutcome {
  /** Samples the oracle did not pass. */
  oracle: Breach[];
  /** Samples nop passed. */
  nop: Breach[];
  n_samples: number;
  ok: boolean;
}

const silent: RunConsole = silentConsole;

function why(r: {
  error: { kind: string; message: string } | null;
  checks: Array<{ name: string; passed: boolean | null; reason: string }>;
}): string {
  if (r.error) return `${r.error.kind}: ${r.error.message}`;
  const c =
    r.checks.find((v) => v.passed === false) ??
    r.checks.find((v) => v.passed === null) ??
    r.checks.find((v) => v.passed === true);
  return c ? `${c.name}: ${c.reason}` : 'no checks';
}

/** One agent over every sample; the samples whose status breaks the rule. */
async function runAgent(
  agent: 'oracle' | 'nop',
  ref: string,
  opts: ValidateRunOptions,
  output: string,
  breaks: (s: TrialStatus) => boolean,
): Promise<{ breaches: Breach[]; n: number }> {
  const { runDir } = await runBenchmark({
    benchmark: ref,
    cwd: opts.cwd,
    env: opts.env,
    configFile: opts.configFile,
    flags: { agent: { name: agent, id: agent }, n_trials: 1, run: { mode: 'single', output } },
    console: silent,
    signal: opts.signal,
  });
  if (opts.signal.aborted) throw new BenchrigError('interrupted', `validate --run: interrupted while running ${agent}`);
  const breaches: Breach[] = [];
  let n = 0;
  for await (const r of readResults(runDir)) {
    n++;
    if (breaks(r.status)) breaches.push({ sample_id: r.sample_id, status: r.status, reason: why(r) });
  }
  return { breaches, n };
}

interface ValidateRunOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  configFile?: string;
  signal: AbortSignal;
  say: (line: string) => void;
}

export async function validateRun(ref: string, opts: ValidateRunOptions): Promise<ValidateRunOutcome> {
  const output = await mkdtemp(join(tmpdir(), 'benchrig-validate-'));
  try {
    opts.say('running oracle (must pass every sample)…');
    const oracle = await runAgent('oracle', ref, opts, output, (s) => s !== 'PASSED');
    opts.say('running nop (must pass none)…');
    const nop = await runAgent('nop', ref, opts, output, (s) => s === 'PASSED');
    return {
      oracle: oracle.breaches,
      nop: nop.breaches,
      n_samples: oracle.n,
      ok: oracle.breaches.length === 0 && nop.breaches.length === 0,
    };
  } finally {
    await rm(output, { recursive: true, force: true });
  }
}
