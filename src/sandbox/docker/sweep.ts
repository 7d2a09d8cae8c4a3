// Removes what dead runs left behind (containers, trial networks, volumes), found by label alone
// (docs/sandboxes.md): at the start of every run,
// at the end of one (its own), and by `benchrig sandbox cleanup`. A sandbox kept on purpose
// (`--keep-sandbox`, label benchrig.keep) is left alone but by `cleanup --run` (its run's), `--kept` and `--all`.
import os from 'node:os';
import type Docker from 'dockerode';
import { describe } from '../../errors.ts';
import { DEFAULT_DEADLINE_MS, docker, statusOf, withDeadline } from './client.ts';
import { isKept, LABEL, runFilter } from './labels.ts';
import { removeTrialNetwork } from './networks.ts';
import { removeContainer } from './remove-container.ts';
import { processAlive } from '../process-alive.ts';

export interface SweepOptions {
  /** Every benchrig container, network and volume, kept ones included, but a live run's of this host. */
  all?: boolean;
  /** The kept sandboxes too (of runs that are over), besides what dead runs left; with `runId`, that run's. */
  kept?: boolean;
  /**
   * Everything of this run (but its kept sandboxes, unless `kept`: `sandbox cleanup --run`), but what
   * another live process on this host made: a run's end-of-run cleanup never removes the sandboxes
   * of another process that carries the same run id.
   */
  runId?: string;
  /** With `runId`: only this trial's session (and its grading copy's, `<session>.grading`): a dead worker's trial. */
  session?: string;
  /** Tolerant: what is not removed is reported here, not thrown (see sweep). */
  onLeft?: (line: string) => void;
  /** With onLeft: the whole sweep's time; default SWEEP_BUDGET_MS. */
  budgetMs?: number;
}

/** Is this container, network or volume's owner gone? Only this host's processes can be checked. */
export function ownerIsGone(labels: Record<string, string> | undefined, host = os.hostname()): boolean {
  if (!labels || labels[LABEL.host] !== host) return false;
  const pid = Number(labels[LABEL.pid]);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  return !processAlive(pid);
}

/** Made by a live harness process of this host other than this one. */
function ownedByAnotherLiveProcess(labels: Record<string, string> | undefined, host = os.hostname()): boolean {
  if (!labels || labels[LABEL.host] !== host) return false;
  const pid = Number(labels[LABEL.pid]);
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && processAlive(pid);
}

/**
 * Whether a sweep removes what carries `labels`. Never a live run's of this host (its pid answers);
 * never a kept sandbox but with `kept` or `all`. A run of another machine cannot be checked: only
 * `all` removes what it made.
 */
export function sweepSelects(
  opts: Pick<SweepOptions, 'all' | 'kept' | 'runId' | 'session'>,
  labels: Record<string, string> | undefined,
): boolean {
  if (ownedByAnotherLiveProcess(labels)) return false;
  if (opts.all) return true;
  if (opts.runId)
    return (
      labels?.[LABEL.run] === opts.runId &&
      (!!opts.kept || !isKept(labels)) &&
      ofSession(opts.session, labels[LABEL.session])
    );
  if (isKept(labels)) return !!opts.kept && ownerIsGone(labels);
  return ownerIsGone(labels);
}

const ofSession = (session: string | undefined, label: string | undefined): boolean =>
  session === undefined || label === session || !!label?.startsWith(`${session}.`);

/** How long a tolerant sweep (`onLeft`) may take in all: housekeeping must not hold a run up. */
const SWEEP_BUDGET_MS = 60_000;

/**
 * Returns how many containers, networks and volumes were removed. With `onLeft` (the start-up sweep of dead
 * runs, which is housekeeping for others): whatever could not be removed in time, or at all (a
 * container stuck in "removing" on a busy daemon), is reported there and left for the next sweep,
 * and the whole sweep takes at most `budgetMs`. Without it, a failure throws.
 */
export async function sweep(opts: SweepOptions = {}, client: Docker = docker()): Promise<number> {
  const selected = (labels: Record<string, string> | undefined) => sweepSelects(opts, labels);
  const filters = JSON.stringify(runFilter(opts.all ? undefined : opts.runId));
  const clock = budget(opts);
  let removed = 0;
  const step = async (what: string, remove: (ms: number) => Promise<unknown>): Promise<void> => {
    const ms = clock.left();
    if (ms <= 0) return clock.skipped(what);
    try {
      if (await removeTolerant(() => remove(ms), ms)) removed++;
    } catch (err) {
      if (stuckNetwork(err)) return opts.onLeft?.(`${what} not removed: ${STUCK}`);
      if (!opts.onLeft) throw err;
      opts.onLeft(`${what} not removed (${describe(err).split('\n')[0]}); left for the next sweep`);
    }
  };

  const containers = await listed(opts, 'containers', () => client.listContainers({ all: true, filters }), clock);
  for (const info of (containers ?? []).filter((c) => selected(c.Labels))) {
    // A run's own sweep waits out another caller's removal under way, so that its volumes go next; the
    // start-up sweep of dead runs does not (a container stuck in "removing" would hold every run's start).
    await step(`container ${info.Id.slice(0, 12)} of run ${info.Labels?.[LABEL.run] ?? '?'}`, (ms) =>
      opts.runId ? removeContainer(client, info.Id, ms) : client.getContainer(info.Id).remove({ force: true, v: true }),
    );
  }

  // Networks and volumes after containers: in use until their containers are gone.
  const networks = await listed(opts, 'networks', () => client.listNetworks({ filters }), clock);
  for (const net of (networks ?? []).filter((n) => selected(n.Labels))) {
    await step(`network ${net.Name}`, () => removeTrialNetwork(client, { name: net.Id }));
  }

  const volumes = await listed(
    opts,
    'volumes',
    async () => (await client.listVolumes({ filters })).Volumes ?? [],
    clock,
  );
  for (const vol of (volumes ?? []).filter((v) => selected(v.Labels ?? undefined))) {
    await step(`volume ${vol.Name}`, () => client.getVolume(vol.Name).remove());
  }
  clock.report();
  return removed;
}

interface Clock {
  left(): number;
  skipped(what: string): void;
  report(): void;
}

/** Per call the usual deadline; with `onLeft`, within the sweep's budget too, naming what it left. */
function budget(opts: SweepOptions): Clock {
  const onLeft = opts.onLeft;
  if (!onLeft) return { left: () => DEFAULT_DEADLINE_MS, skipped: () => {}, report: () => {} };
  const end = performance.now() + (opts.budgetMs ?? SWEEP_BUDGET_MS);
  const skipped: string[] = [];
  return {
    left: () => Math.min(DEFAULT_DEADLINE_MS, Math.round(end - performance.now())),
    skipped: (what) => void skipped.push(what),
    report: () => {
      if (skipped.length)
        onLeft(
          `${skipped.length} left by dead runs not removed (first: ${skipped[0]}): the sweep's ${(opts.budgetMs ?? SWEEP_BUDGET_MS) / 1000} s had passed; left for the next sweep`,
        );
    },
  };
}

/** A listing, under the deadline; with `onLeft`, a failure is reported and nothing is removed. */
async function listed<T>(
  opts: SweepOptions,
  what: string,
  list: () => Promise<T[]>,
  clock: Clock,
): Promise<T[] | null> {
  const ms = clock.left();
  if (ms <= 0) return (clock.skipped(`the ${what}`), null);
  try {
    return await withDeadline(list(), ms, `list ${what}`);
  } catch (err) {
    if (!opts.onLeft) throw err;
    opts.onLeft(
      `the ${what} left by dead runs could not be listed (${describe(err).split('\n')[0]}); left for the next sweep`,
    );
    return null;
  }
}

/**
 * Docker 20.10 can keep counting an endpoint on a network after its last container is gone; it then
 * refuses to remove it ("has active endpoints", nothing attached) until the daemon restarts. No sweep
 * can remove it, so none fails on it: it is reported (with onLeft) and left.
 */
const stuckNetwork = (err: unknown): boolean => /has active endpoints/i.test(describe(err));
const STUCK = 'the daemon still counts an endpoint on it with no container attached (restarting dockerd clears it)';

/** True when removed by us; false when already gone (or `remove` says so) or still in use (409: a live container holds it). */
async function removeTolerant(remove: () => Promise<unknown>, ms: number): Promise<boolean> {
  try {
    return (await withDeadline(remove(), ms, 'remove')) !== false;
  } catch (err) {
    const status = statusOf(err);
    if (status === 404 || status === 409) return false;
    throw err;
  }
}
