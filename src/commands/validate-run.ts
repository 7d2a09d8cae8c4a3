// `benchrig validate BENCH --run` (docs/cli.md): prove a benchmark grades what it claims. The reference
// baseline (the oracle: the reference solutions) must pass every sample and the empty one (nop: an
// empty reply) must pass none (agents/load.ts names them). Both run one trial per sample in `single`
// mode into a temporary output folder, removed afterwards.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baselineAgent } from '../agents/load.ts';
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

/** One baseline's run: the built-in that is it, and the samples that broke its rule. */
interface BaselineOutcome {
  agent: string;
  breaches: Breach[];
}

interface ValidateRunOutcome {
  /** Samples the reference baseline (the oracle) did not pass. */
  reference: BaselineOutcome;
  /** Samples the empty baseline (nop) passed. */
  empty: BaselineOutcome;
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
  agent: string,
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
  for (const r of readResults(runDir)) {
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
    const reference = baselineAgent('reference');
    opts.say(`running ${reference} (must pass every sample)…`);
    const all = await runAgent(reference, ref, opts, output, (s) => s !== 'PASSED');
    const empty = baselineAgent('empty');
    opts.say(`running ${empty} (must pass none)…`);
    const none = await runAgent(empty, ref, opts, output, (s) => s === 'PASSED');
    return {
      reference: { agent: reference, breaches: all.breaches },
      empty: { agent: empty, breaches: none.breaches },
      n_samples: all.n,
      ok: all.breaches.length === 0 && none.breaches.length === 0,
    };
  } finally {
    await rm(output, { recursive: true, force: true });
  }
}
