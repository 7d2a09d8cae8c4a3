// The worker loop, the same for threads and processes: it only sees messages in and a `send` out.
// One RunContext per worker (the 'init' message), then any number of trials in flight at once.
import { abortReason, toErrorValue } from '../errors.ts';
import { forMainSide, type MainMessage, type WorkerMessage } from '../pool/messages.ts';
import { contextOf } from '../pool/cells.ts';
import type { PhaseBoard } from '../pool/phase-board.ts';
import type { HostFailure, SandboxSlot } from '../sandbox/index.ts';
import { runTrial, TrialTimeout } from '../trial/lifecycle.ts';
import { prestart, type Prestart } from '../trial/prestart.ts';
import { removalsSettled } from '../trial/removals.ts';
import { flushTelemetry } from '../telemetry/otel.ts';
import type { RunContext, TrialHooks } from '../trial/types.ts';

interface Running {
  abort: AbortController;
  /** Slot requests waiting for 'granted', by reqId. */
  waiting: Map<number, (slot: SandboxSlot) => void>;
  /** The requests made ahead (trial/prestart.ts): the trial takes their slots when it starts ('taken'). */
  ahead?: number[];
}

/** A trial waiting here for a place, its environment started ahead (trial/prestart.ts). */
interface Ahead {
  prestart: Prestart;
  /** Its slot requests, as a running trial's: the trial keeps them when it starts. */
  state: Running;
}

interface WorkerLoop {
  handle(msg: MainMessage): void;
  /** Trials given to this worker that wait for one of its places (see `limit`). */
  readonly waiting: number;
}

type RunMessage = Extract<MainMessage, { type: 'run' }>;

/** The loop's state: the run (once 'init' came), the trials running and those waiting for a place. */
interface LoopState {
  send: (msg: WorkerMessage) => void;
  board: PhaseBoard | undefined;
  limit: number;
  run: RunContext | undefined;
  /** A job's cells (pool/cells.ts). */
  cells: RunContext[] | undefined;
  running: Map<number, Running>;
  waiting: RunMessage[];
  /** The environments of waiting trials, started ahead, by trial id. */
  ahead: Map<number, Ahead>;
  nextReq: number;
}

/**
 * `board`: a thread's view of its pool's phase board, where trials with a slot mark their agent phase.
 * `limit`: trials run at once; more may be given (threads.ts gives a thread its next trials ahead),
 * and those wait here, in order, and start as places free, without a round trip to the main side.
 */
export function createWorkerLoop(send: (msg: WorkerMessage) => void, board?: PhaseBoard, limit = Infinity): WorkerLoop {
  const s: LoopState = {
    send,
    board,
    limit,
    run: undefined,
    cells: undefined,
    running: new Map(),
    waiting: [],
    ahead: new Map(),
    nextReq: 0,
  };
  return {
    get waiting() {
      return s.waiting.length;
    },
    handle(msg) {
      switch (msg.type) {
        case 'init':
          s.run = msg.run;
          s.cells = msg.cells;
          return;
        case 'run':
          if (!s.run)
            return send({
              type: 'failed',
              id: msg.id,
              error: { kind: 'internal', message: 'worker got a trial before its init message' },
            });
          return begin(s, msg);
        case 'cancel':
          return cancel(s, msg);
        case 'ping':
          // Answered by the loop itself: reaching here is the proof that the event loop runs.
          return send({ type: 'pong', id: msg.id });
        case 'granted':
          return granted(s, msg);
        case 'drain':
          return void drain(s).then(() => send({ type: 'drained' }));
      }
    },
  };
}

function begin(s: LoopState, msg: RunMessage): void {
  if (s.running.size < s.limit) return start(s, msg);
  s.waiting.push(msg);
  startAhead(s, msg);
}

/**
 * A trial that waits here for a place has its environment started now (docs/running.md#sandboxes-ready-before-they-are-needed),
 * in a slot no trial with a place is waiting for: when its place frees, it runs at once.
 */
function startAhead(s: LoopState, msg: RunMessage): void {
  if (!s.run) return;
  const state: Running = { abort: new AbortController(), waiting: new Map() };
  const prestarted = prestart(contextOf(s.run, s.cells, msg.trial), msg.trial, {
    hooks: { acquireSandbox: (signal, opts) => acquire(s, msg.id, state, signal, opts) },
  });
  if (!prestarted) return;
  s.ahead.set(msg.id, { prestart: prestarted, state });
  // Up: the main side learns of it, so that it is removed if this worker dies before the trial runs.
  void prestarted.env.then(
    (env) =>
      s.ahead.has(msg.id) &&
      s.send({ type: 'sandbox', id: msg.id, taskId: msg.trial.taskId, containerId: env.main.id }),
    () => {},
  );
}

/** The pool closes: what was started ahead and not taken goes, and every removal of this worker ends. */
async function drain(s: LoopState): Promise<void> {
  const ahead = [...s.ahead.values()];
  s.ahead.clear();
  await Promise.all(ahead.map((a) => a.prestart.discard()));
  await removalsSettled();
}

function start(s: LoopState, { id, trial, events, slot, answered }: RunMessage): void {
  const { send, board, run } = s;
  // begin() is called only once 'init' has come.
  if (!run) throw new Error('internal: a trial started before the init message');
  const ahead = s.ahead.get(id);
  s.ahead.delete(id);
  const state: Running = ahead?.state ?? { abort: new AbortController(), waiting: new Map() };
  const { abort } = state;
  s.running.set(id, state);
  // Its environment started ahead is its own now: the slot counts as a trial's (pool/semaphore.ts).
  if (ahead?.prestart.granted) for (const reqId of state.ahead ?? []) send({ type: 'taken', id, reqId });
  state.ahead = undefined;
  const hooks: TrialHooks = {
    onSandbox: (taskId, containerId) => send({ type: 'sandbox', id, taskId, containerId }),
    acquireSandbox: (signal, opts) => acquire(s, id, state, signal, opts),
    onAgentPhase:
      board && slot !== undefined
        ? (_taskId, phase) => board.mark(slot, id, phase)
        : (_taskId, phase) => send({ type: 'agent', id, phase }),
  };
  // Events cost a message each: only when the main side listens.
  if (events) hooks.onEvent = (taskId, event) => send({ type: 'event', id, taskId, event });
  if (answered) hooks.onModelAnswered = () => send({ type: 'answered', id });
  runTrial(contextOf(run, s.cells, trial), trial, {
    signal: abort.signal,
    hooks,
    removeInBackground: true,
    ...(ahead ? { prestarted: ahead.prestart } : {}),
  })
    .then(
      // The trial's spans leave before its result does: a worker may be killed or ended (pool
      // close, Ctrl-C) right after, and the run's report waits for nothing else. A no-op when off.
      async (result) => (await flushTelemetry(), send({ type: 'result', id, result: forMainSide(result) })),
      (err) => send({ type: 'failed', id, error: toErrorValue(err, 'internal') }),
    )
    .finally(() => {
      void ahead?.prestart.discard(); // not taken (the trial failed before its environment): removed
      s.running.delete(id);
      const next = s.waiting.shift(); // the main side promotes the same one when this result reaches it
      if (next) start(s, next);
    });
}

function acquire(
  s: LoopState,
  id: number,
  state: Running,
  signal: AbortSignal,
  opts?: { ahead?: boolean },
): Promise<SandboxSlot> {
  const { send } = s;
  return new Promise<SandboxSlot>((resolve, reject) => {
    if (signal.aborted) return reject(abortReason(signal));
    const reqId = ++s.nextReq;
    const giveBack = () => send({ type: 'release', id, reqId });
    const onAbort = () => {
      state.waiting.delete(reqId);
      giveBack(); // abandons the request, or returns a grant that is already on its way
      reject(abortReason(signal));
    };
    state.waiting.set(reqId, (slot) => {
      signal.removeEventListener('abort', onAbort);
      resolve(slot);
    });
    signal.addEventListener('abort', onAbort, { once: true });
    if (opts?.ahead) (state.ahead ??= []).push(reqId);
    send({ type: 'acquire', id, reqId, ...(opts?.ahead ? { ahead: true } : {}) });
  });
}

function cancel(s: LoopState, msg: Extract<MainMessage, { type: 'cancel' }>): void {
  // Abort the trial's signal: runTrial's `finally` removes the sandbox. A timeout reason
  // makes it a TIMEOUT (saved); an interrupt makes it 'interrupted' (not saved).
  const reason =
    msg.reason === 'timeout' ? new TrialTimeout(s.run?.limits.trial_timeout_s ?? 0) : new Error('interrupted');
  const queued = s.waiting.findIndex((w) => w.id === msg.id);
  if (queued < 0) return void s.running.get(msg.id)?.abort.abort(reason);
  // Never started: it leaves the queue, and ends as what stopped it (an interrupted one is not saved).
  s.waiting.splice(queued, 1);
  void s.ahead.get(msg.id)?.prestart.discard();
  s.ahead.delete(msg.id);
  return s.send({
    type: 'failed',
    id: msg.id,
    error:
      msg.reason === 'timeout'
        ? { kind: 'timeout', message: reason.message }
        : { kind: 'interrupted', message: 'the run was interrupted' },
  });
}

function granted(s: LoopState, msg: Extract<MainMessage, { type: 'granted' }>): void {
  const state = s.running.get(msg.id) ?? s.ahead.get(msg.id)?.state;
  const grant = state?.waiting.get(msg.reqId);
  if (!state || !grant) return; // abandoned: the release we sent returns the slot
  state.waiting.delete(msg.reqId);
  let released = false;
  // The slot carries its host (on a provider of several); giving it back may report that host as failed.
  const release = (failed?: HostFailure) => {
    if (released) return;
    released = true;
    s.send({ type: 'release', id: msg.id, reqId: msg.reqId, ...(failed ? { failed } : {}) });
  };
  grant({ host: msg.host, refused: msg.refused, release });
}
