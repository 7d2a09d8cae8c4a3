// The messages between the main side of a remote pool and its workers (threads or processes).
// Tagged unions of plain data: they cross structured clone (threads) and advanced IPC (processes).
import type { ErrorValue } from '../errors.ts';
import type { HostFailure } from '../sandbox/index.ts';
import type { RunContext, TrialInput, TrialSummary } from '../trial/types.ts';
import type { TrajectoryEvent, TrialResult } from '../types.ts';

/** Why the main side cancels a trial: the run was interrupted, or the trial ran past its deadline. */
export type CancelReason = 'interrupt' | 'timeout';

/** Main side → worker. */
export type MainMessage =
  /** Once per worker, before any trial: the RunContext is never repeated per trial. */
  | { type: 'init'; run: RunContext; cells?: RunContext[] }
  /**
   * `events`: forward trajectory events (only when the main side has an onEvent hook). `slot`: the
   * trial's slot on the thread pool's phase board (phase-board.ts); without one, 'agent' messages.
   * `answered`: say 'answered' when the trial's first model call is (an onModelAnswered hook).
   */
  | { type: 'run'; id: number; trial: TrialInput; events: boolean; slot?: number; answered: boolean }
  | { type: 'cancel'; id: number; reason: CancelReason }
  /** Is the worker's event loop still running? Sent from a grace period before trial `id`'s timeout (watchdog.ts). */
  | { type: 'ping'; id: number }
  /** A `--max-sandboxes` slot for the request `reqId` of trial `id`; on several hosts, the host placed (or why none could be). */
  | { type: 'granted'; id: number; reqId: number; host?: string; refused?: string }
  /** The pool closes: sandboxes started ahead that no trial took are removed, and every removal still running is awaited ('drained'). */
  | { type: 'drain' };

/** Worker → main side. */
export type WorkerMessage =
  /**
   * The worker takes trials: a process listens (IPC messages sent before that would be lost); a
   * thread has loaded its entry (the harness and the model client), posted on its port.
   */
  | { type: 'ready' }
  /**
   * The worker's agents (and their modules) are loaded too, or failed to: the pool's start waits for
   * this, so that no trial of the run's first turn waits for another worker's loading (forks.ts, threads.ts).
   */
  | { type: 'loaded' }
  | { type: 'result'; id: number; result: TrialSummary }
  /** runTrial itself threw (it should not): the main side writes a failed result. */
  | { type: 'failed'; id: number; error: ErrorValue }
  | { type: 'event'; id: number; taskId: string; event: TrajectoryEvent }
  /** The trial's sandbox is up (or gone: null): the main side removes it if the worker dies. */
  | { type: 'sandbox'; id: number; taskId: string; containerId: string | null }
  /** `ahead`: for a sandbox started before its trial has a place (trial/prestart.ts), served after every other request. */
  | { type: 'acquire'; id: number; reqId: number; ahead?: boolean }
  /** The trial's agent phase starts (its timeout's clock) or ends: the main side's watchdog runs in between. */
  | { type: 'agent'; id: number; phase: 'start' | 'end' }
  /** The answer to a 'ping': this worker's event loop runs. */
  | { type: 'pong'; id: number }
  /** The slot of `reqId` is given back, or the request is abandoned before it was granted. */
  | { type: 'release'; id: number; reqId: number; failed?: HostFailure }
  /** An uncaught exception: the worker is about to exit (processes only; threads report it as an 'error'). */
  | { type: 'fatal'; error: ErrorValue }
  /** The environment started ahead with the slot of `reqId` was taken by its trial, which now has its place. */
  | { type: 'taken'; id: number; reqId: number }
  /** The answer to 'drain': nothing of this worker's is being started or removed any more. */
  | { type: 'drained' }
  /** The trial's first model call was answered (asked by the 'run' message's `answered`). */
  | { type: 'answered'; id: number };

/** Threads: the key of the message in which a booting thread hands its MessagePort to the main side. */
export const THREAD_PORT = 'benchrigThreadPort';

/** The messages that concern one trial. */
export type TrialMessage = Extract<WorkerMessage, { id: number }>;

/** What of a saved result crosses back to the main side (TrialSummary says why). */
export function forMainSide(r: TrialResult): TrialSummary {
  const {
    prompt: _prompt,
    response: _response,
    replies: _replies,
    events: _events,
    transcript: _transcript,
    final_state: _state,
    artifacts: _artifacts,
    ...summary
  } = r;
  // The sample's own metadata neither: the main side never reads it, and a dataset's can be large.
  const { sample_metadata: _sample, ...metadata } = r.metadata;
  return { ...summary, metadata };
}
