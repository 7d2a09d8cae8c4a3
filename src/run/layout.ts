// How many workers a run starts and how many trials each keeps in flight (docs/running.md#layout).
// Given neither `workers` nor `per_worker` (flags, [run], a job file), the run picks from what its
// trials do: trials that only wait (on a sandbox, a model, an endpoint) share one worker, whose
// event loop is idle while they wait, and each more worker is an isolate with its own copy of the
// trial code (~15 MB, docs/performance.md); a user's agent or user module, or a check that runs the
// benchmark's own code, may compute, so each trial in flight gets a worker of its own. The trials
// in flight are the same either way: IN_FLIGHT, as before the run picked.
import { agentWaitsOn } from '../agents/load.ts';
import { getCheck } from '../checks/index.ts';
import type { Config } from '../config/schema.ts';

/** Trials in flight when the run picks its layout: what the default of 4 workers × 1 always ran. */
export const IN_FLIGHT = 4;
/** What a layout that is partly given takes for the other key (their defaults before the run picked). */
const GIVEN_DEFAULTS = { workers: 4, per_worker: 1 };

export interface Layout {
  workers: number;
  per_worker: number;
  /** true: the run picked it (neither key was given). */
  picked: boolean;
  /** "given: …" or "picked: …" and why, in a line: the run header's and run.json's `layout.why`. */
  why: string;
}

/** What a run's trials do: what each part waits on, and the parts that may compute in their worker. */
interface TrialWork {
  waits: string[];
  computes: string[];
}

/** From the parts' declarations (agents/load.ts `agentWaitsOn`, a check's `computes`), never their names' meaning. */
export function trialWork(agent: { name: string; module?: string }, cfg: Pick<Config, 'checks' | 'user'>): TrialWork {
  const waits: string[] = [];
  const computes: string[] = [];
  const on = agentWaitsOn(agent);
  if (on === null) computes.push(`the agent ${agent.name} (a module)`);
  else waits.push(`the agent ${agent.name} waits on ${on}`);
  if (cfg.user.kind === 'module') computes.push('the simulated user (a module)');
  const custom = cfg.checks.filter((c) => getCheck(c.type)?.computes).map((c) => c.name);
  if (custom.length)
    computes.push(`the check${custom.length > 1 ? 's' : ''} ${custom.join(', ')} (the benchmark's code)`);
  else if (cfg.checks.length) waits.push('no check runs code of the benchmark');
  return { waits, computes };
}

type RunKeys = { mode: string; workers?: number | undefined; per_worker?: number | undefined };

/** The layout: the configuration's when it gives one key or both, else the one the trials' work calls for. */
export function chooseLayout(run: RunKeys, work: TrialWork): Layout {
  if (run.mode === 'single')
    return { workers: 1, per_worker: 1, picked: false, why: 'given: single mode runs one trial at a time' };
  if (run.workers !== undefined || run.per_worker !== undefined) {
    const given = (['workers', 'per_worker'] as const).map((k) =>
      run[k] === undefined ? `${k} ${GIVEN_DEFAULTS[k]} (default)` : `${k} ${run[k]}`,
    );
    return {
      workers: run.workers ?? GIVEN_DEFAULTS.workers,
      per_worker: run.per_worker ?? GIVEN_DEFAULTS.per_worker,
      picked: false,
      why: `given: ${given.join(', ')}`,
    };
  }
  if (work.computes.length)
    return {
      workers: IN_FLIGHT,
      per_worker: 1,
      picked: true,
      why: `picked: a worker per trial, as ${work.computes.join('; ')} may compute`,
    };
  return {
    workers: 1,
    per_worker: IN_FLIGHT,
    picked: true,
    why: `picked: one worker, as every trial waits (${work.waits.join('; ')})`,
  };
}

/** A job's one pool for all its cells: the layout of the cell that needs the most workers (the first on a tie). */
export function jobLayout(layouts: Layout[]): Layout | undefined {
  return layouts.reduce<Layout | undefined>((a, b) => (!a || b.workers > a.workers ? b : a), undefined);
}

/** The layout as the run header says it: "1 worker × 4 trials in flight (picked: …)". */
export function layoutLine(l: Layout): string {
  return `${l.workers} worker${l.workers === 1 ? '' : 's'} × ${l.per_worker} trial${l.per_worker === 1 ? '' : 's'} in flight (${l.why})`;
}
