// The main side of one trial running in a remote worker (a thread or a process), shared by both pools:
// it forwards the trial's messages to the hooks, grants `--max-sandboxes` slots, enforces the trial's
// deadline and watches the worker's event loop (watchdog.ts); when the worker dies (the pools tell it
// through `workerGone`) it turns the death into the trial's result and removes its sandbox.
import { readFile } from 'node:fs/promises';
import { SANDBOX_START_S, sandboxSpecOf, trialTimeoutOf } from '../trial/per-trial.ts';
import type { ErrorValue } from '../errors.ts';
import { placementFor, providerFor, type HostFailure, type SandboxSlot } from '../sandbox/index.ts';
import { failedResult, resultFile, saveFailedResult } from '../trial/result.ts';
import type { RunContext, TrialHooks, TrialInput, TrialSummary } from '../trial/types.ts';
import type { TrialResult } from '../types.ts';
import { contextOf } from './cells.ts';
import { forMainSide, type CancelReason, type MainMessage, type TrialMessage } from './messages.ts';
import { defaultMaxSandboxes, Semaphore } from './semaphore.ts';
import type { PoolOptions } from './types.ts';
import type { AgentPhase } from './phase-board.ts';
import { EventLoopWatchdog } from './watchdog.ts';
import type { HeldSlot, WorkerSlots } from './worker-slots.ts';

export interface RemoteSettings {
  run: RunContext;
  /** A job's cells (cells.ts). */
  cells?: RunContext[];
  sandboxes: Semaphore;
  /** How long a worker has to answer a cancel before it is killed; also added to every deadline. */
  graceMs: number;
  /** Added to the deadline of sandboxed trials: the trial's clock starts once its sandbox is up. */
  sandboxStartMs: number;
}

/** What a trial needs from the worker it runs on. */
export interface WorkerChannel {
  send(msg: MainMessage): void;
  /** Kill the whole worker; `cause` explains it to its other trials. */
  kill(cause: string): void;
  /**
   * Where the trial's agent phase is, read from memory shared with its thread (phase-board.ts);
   * without it, the worker sends 'agent' messages (processes).
   */
  agentPhase?(): AgentPhase;
  /**
   * The pool starts the trial's clock (clockStarts) once the trial has a place at its thread, which
   * may be after it is sent; without it, the clock starts as the trial is sent.
   */
  readonly clockFromPool?: boolean;
  /**
   * The slots its worker holds (worker-slots.ts): a granted slot is kept there, not by the trial, so
   * that it outlives the trial's result while its environment is removed in the background; without
   * it, the trial holds its slots and gives them back when it ends.
   */
  readonly slots?: WorkerSlots;
}

export const DEFAULT_GRACE_MS = 5_000;
/** The minute a start may take beyond the trial's timeout: the start's own deadline (trial/start-deadline.ts) comes first. */
const DEFAULT_SANDBOX_START_MS = SANDBOX_START_S * 1000;
export const DEFAULT_WORKER_MEMORY_MB = 1024;

export interface RemotePoolOptions extends PoolOptions {
  maxSandboxes?: number;
  graceMs?: number;
  sandboxStartMs?: number;
  /** Heap limit of each worker (--max-old-space-size / maxOldGenerationSizeMb). */
  workerMemoryMb?: number;
}

export function remoteSettings(run: RunContext, opts: RemotePoolOptions): RemoteSettings {
  const max = opts.maxSandboxes ?? defaultMaxSandboxes(opts.workers * opts.perWorker);
  return {
    run,
    ...(opts.cells ? { cells: opts.cells } : {}),
    // Environments started ahead of their trials take only the slots that the trials with a place
    // (workers × per-worker at once) cannot all need: no trial with a place waits behind one without.
    sandboxes: new Semaphore(max, { ahead: max - opts.workers * opts.perWorker }),
    graceMs: opts.graceMs ?? DEFAULT_GRACE_MS,
    sandboxStartMs: opts.sandboxStartMs ?? DEFAULT_SANDBOX_START_MS,
  };
}

let nextId = 0;

export class RemoteTrial {
  readonly id = ++nextId;
  readonly startedAt = new Date();
  readonly done: Promise<TrialSummary>;
  #resolve!: (r: TrialSummary) => void;
  #settled = false;
  #containerId: string | null = null;
  /** The host of that container, on a provider of several (the host of the slot it was started under). */
  #containerHost: string | undefined;
  #cancelled: CancelReason | null = null;
  #deadline?: NodeJS.Timeout;
  #killTimer?: NodeJS.Timeout;
  #clockStarted = false;
  /** When the trial's agent phase is on a shared board: the next look at it. */
  #phaseTimer?: NodeJS.Timeout;
  /** The worker did not answer the watchdog: its event loop is blocked, and it was killed for it. */
  #blocked = false;
  readonly #watchdog: EventLoopWatchdog;
  readonly #slots = new Map<number, { abort: AbortController; granted?: SandboxSlot }>();
  readonly #onInterrupt = () => this.cancel('interrupt');
  /** The RunContext of the trial's cell (a job), else the pool's. */
  private get cellRun(): RunContext {
    return contextOf(this.s.run, this.s.cells, this.input);
  }

  constructor(
    private readonly s: RemoteSettings,
    readonly input: TrialInput,
    private readonly opts: { signal: AbortSignal; hooks?: TrialHooks },
    private channel?: WorkerChannel,
  ) {
    this.done = new Promise((resolve) => (this.#resolve = resolve));
    this.#watchdog = new EventLoopWatchdog({
      afterMs: trialTimeoutOf(s.run, input) * 1000,
      answerMs: s.graceMs,
      ping: () => this.channel?.send({ type: 'ping', id: this.id }),
      blocked: () => {
        this.#blocked = true;
        // Which of the worker's trials blocked its loop cannot be told from here: the first whose
        // timeout passes ends as TIMEOUT, and the cause tells the others (AGENT_ERROR) what happened.
        this.channel?.kill(
          `trial ${this.input.taskId} in the same worker ran past its timeout and the worker did not answer for ${s.graceMs} ms: its event loop was blocked`,
        );
      },
    });
  }

  get settled(): boolean {
    return this.#settled;
  }

  /** Asked to stop (interrupted, or past its deadline). */
  get cancelled(): boolean {
    return this.#cancelled !== null;
  }

  /** Sends the trial to its worker and starts its clock; a run already interrupted never starts. */
  start(channel: WorkerChannel): void {
    this.channel = channel;
    if (this.opts.signal.aborted) return void this.workerGone('the run was interrupted before the trial started');
    const { onEvent, onModelAnswered } = this.opts.hooks ?? {};
    channel.send({ type: 'run', id: this.id, trial: this.input, events: !!onEvent, answered: !!onModelAnswered });
    if (!channel.clockFromPool) this.clockStarts();
    this.opts.signal.addEventListener('abort', this.#onInterrupt, { once: true });
  }

  /** The trial has a place in its worker: its deadline and the watch over its agent phase start (once). */
  clockStarts(): void {
    if (this.#settled || this.#cancelled || this.#clockStarted) return;
    this.#clockStarted = true;
    this.#arm();
    if (this.channel?.agentPhase) this.#phaseTimer = setTimeout(this.#lookAtPhase, this.#phaseLookMs());
  }

  handle(msg: TrialMessage): void {
    // A slot goes back whenever its worker says so: after the trial's result too (its environment removed in the background).
    if (msg.type === 'release') return this.#release(msg.reqId, msg.failed);
    if (this.#settled) return; // late messages of a trial whose worker died
    switch (msg.type) {
      case 'result':
        return this.#finish(msg.result);
      case 'failed':
        return void this.#fail(msg.error);
      case 'event':
        return this.opts.hooks?.onEvent?.(msg.taskId, msg.event);
      case 'sandbox':
        // Ready: the trial's own time starts now (docs/running.md), so however long its environment took
        // to start (many services, health waits, a loaded engine) none of it is taken from the trial.
        // One started ahead, while the trial waits for its place (trial/prestart.ts), arms nothing yet.
        if (msg.containerId && !this.#cancelled && this.#clockStarted) this.#arm();
        if (msg.containerId && msg.containerId === this.#containerId) return; // started ahead, now taken: known
        this.#containerId = msg.containerId ?? null;
        this.#containerHost = [...this.#slots.values()].reverse().find((s) => s.granted?.host)?.granted?.host;
        return this.opts.hooks?.onSandbox?.(msg.taskId, msg.containerId);
      case 'acquire':
        return this.#acquire(msg.reqId, msg.ahead);
      case 'taken':
        return this.channel?.slots?.promote(msg.reqId);
      case 'agent':
        return msg.phase === 'start' ? this.#watchdog.start() : this.#watchdog.stop();
      case 'pong':
        return this.#watchdog.answered();
      case 'answered':
        return this.opts.hooks?.onModelAnswered?.();
    }
  }

  #release(reqId: number, failed?: HostFailure): void {
    const slot = this.#slots.get(reqId);
    this.#slots.delete(reqId);
    slot?.abort.abort();
    slot?.granted?.release(failed);
    this.channel?.slots?.release(reqId, failed);
  }

  /**
   * Its worker died before the trial had a place there, and it goes to another: the environment
   * started ahead for it there is removed, and what it asked for there given up.
   */
  requeued(): void {
    const container = this.#containerId;
    this.#containerId = null;
    if (container) void this.#remove(container, this.#containerHost);
    for (const slot of this.#slots.values()) {
      slot.abort.abort();
      slot.granted?.release();
    }
    this.#slots.clear();
  }

  /** Asks the worker to stop the trial; kills the worker if it has not answered after the grace period. */
  cancel(reason: CancelReason): void {
    if (this.#settled || this.#cancelled) return;
    this.#cancelled = reason;
    clearTimeout(this.#deadline);
    this.channel?.send({ type: 'cancel', id: this.id, reason });
    this.#killTimer = setTimeout(() => {
      const why = reason === 'timeout' ? 'ran past its timeout' : 'was interrupted';
      this.channel?.kill(
        `trial ${this.input.taskId} in the same worker ${why} and the worker did not answer within ${this.s.graceMs} ms`,
      );
    }, this.s.graceMs);
  }

  /**
   * The worker died with this trial in flight: the trial's result, saved, and its sandbox removed.
   * Unless the trial had ended and saved its result first (a worker sends results in batches, and
   * may die, killed or crashing on another trial, before the batch leaves): that result stands.
   */
  async workerGone(cause: string): Promise<void> {
    if (this.#settled) return;
    const saved = await this.#savedByWorker();
    if (saved && !this.#settled) return this.#finish(saved);
    if (this.#settled) return;
    let error: ErrorValue;
    if (this.opts.signal.aborted) error = { kind: 'interrupted', message: 'the run was interrupted' };
    else if (this.#blocked)
      error = {
        kind: 'timeout',
        message: `the trial exceeded trial_timeout_s = ${trialTimeoutOf(this.cellRun, this.input)} and its worker did not answer for ${this.s.graceMs} ms (its event loop was blocked), so the worker was killed`,
      };
    else if (this.#cancelled === 'timeout')
      error = {
        kind: 'timeout',
        message: `the trial exceeded trial_timeout_s = ${trialTimeoutOf(this.cellRun, this.input)} and its worker did not stop within ${this.s.graceMs} ms, so it was killed`,
      };
    else error = { kind: 'agent', message: `the worker running this trial died: ${cause}` };
    await this.#fail(error);
  }

  async #fail(error: ErrorValue): Promise<void> {
    if (this.#settled) return;
    this.#settled = true; // late messages from a dying worker are ignored from here
    this.#cleanup();
    const container = this.#containerId;
    if (container) {
      await this.#remove(container, this.#containerHost);
      this.opts.hooks?.onSandbox?.(this.input.taskId, null);
    }
    const result = failedResult(this.cellRun, this.input, error, this.startedAt, { containerId: container });
    // An interrupted trial is not saved (as in runTrial): --resume runs it again.
    if (error.kind !== 'interrupted') await saveFailedResult(this.cellRun, result).catch(() => {});
    this.#resolve(result);
  }

  /** This attempt's result file, when its worker wrote one (not an earlier attempt's: it started after this trial was sent). */
  async #savedByWorker(): Promise<TrialSummary | null> {
    try {
      const r = JSON.parse(await readFile(resultFile(this.cellRun.runDir, this.input.taskId), 'utf8')) as TrialResult;
      return typeof r.started_at === 'string' && r.started_at >= this.startedAt.toISOString() ? forMainSide(r) : null;
    } catch {
      return null; // none, or not readable: the worker did not finish it
    }
  }

  /** Removes a dead worker's sandbox through the trial's provider; gone already is fine, and the run's label sweep is the backstop. */
  async #remove(id: string, host?: string): Promise<void> {
    const spec = sandboxSpecOf(this.cellRun, this.input);
    if (spec) await (await providerFor(spec)).remove(id, host).catch(() => {});
  }

  #finish(result: TrialSummary): void {
    this.#settled = true;
    this.#cleanup();
    this.#resolve(result);
  }

  // The watchdog needs to act a grace period before the timeout at the earliest, counted from the
  // agent phase's start, which is not before now: nothing to look at until then. A phase not started
  // by then is looked at again as late; one started is handed to the watchdog with its start time.
  #phaseLookMs = () => Math.max(100, trialTimeoutOf(this.cellRun, this.input) * 1000 - this.s.graceMs);
  #lookAtPhase = () => {
    const phase = this.channel?.agentPhase?.();
    if (this.#settled || !phase || phase.at === 'after') return;
    if (phase.at === 'agent') return this.#watchdog.start(phase.sinceMs);
    this.#phaseTimer = setTimeout(this.#lookAtPhase, this.#phaseLookMs());
  };

  #cleanup(): void {
    clearTimeout(this.#deadline);
    clearTimeout(this.#phaseTimer);
    clearTimeout(this.#killTimer);
    this.#watchdog.stop();
    this.opts.signal.removeEventListener('abort', this.#onInterrupt);
    // A slot held by a trial that is over (or whose worker died) goes back to the run.
    for (const slot of this.#slots.values()) {
      slot.abort.abort();
      slot.granted?.release();
    }
    this.#slots.clear();
  }

  /** The deadline: trial_timeout_s, plus the sandbox's start when there is one, plus the grace period. */
  #arm(): void {
    clearTimeout(this.#deadline);
    const ms =
      trialTimeoutOf(this.cellRun, this.input) * 1000 +
      (sandboxSpecOf(this.cellRun, this.input) ? this.s.sandboxStartMs : 0) +
      this.s.graceMs;
    this.#deadline = setTimeout(() => this.cancel('timeout'), ms);
  }

  /** `ahead`: for an environment started before the trial has its place, served after every other (semaphore.ts). */
  #acquire(reqId: number, ahead?: boolean): void {
    clearTimeout(this.#deadline); // waiting for a slot is the run's doing, not the trial's
    const abort = new AbortController();
    this.#slots.set(reqId, { abort });
    // A provider of several hosts places the sandbox (and bounds it); else the --max-sandboxes semaphore.
    // A placement serves its requests in order only: one made ahead is never served there (the trial
    // abandons it when it has its place, and asks again in its turn).
    const placement = placementFor(this.cellRun.runId);
    if (placement && ahead) return;
    const granted: Promise<HeldSlot> = placement
      ? placement.acquire(abort.signal)
      : this.s.sandboxes.acquire(abort.signal, { ahead }).then((release) => ({ release, promote: release.promote }));
    granted.then(
      (granted) => {
        const slot = this.#slots.get(reqId);
        if (!slot || this.#settled) return granted.release();
        // The worker's from here (worker-slots.ts), when the pool keeps its workers' slots.
        const ledger = this.channel?.slots;
        if (ledger) {
          this.#slots.delete(reqId);
          ledger.hold(reqId, granted);
        } else slot.granted = granted;
        if (!this.#cancelled && this.#clockStarted) this.#arm();
        const placed = placement ? { host: granted.host, refused: granted.refused } : {};
        this.channel?.send({ type: 'granted', id: this.id, reqId, ...placed });
      },
      () => {}, // abandoned: the worker released the request, or the trial is over
    );
  }
}
