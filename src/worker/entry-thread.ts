// The worker loop inside a `threads` pool's thread. The thread boots before its run exists (what to
// load first is its workerData); the RunContext arrives once, as the 'init' message on its port,
// before any trial. Every message of every trial travels both ways over one MessagePort of this
// thread's, handed to the main side as the thread boots: this thread's 'ready' once this module has
// loaded, then the trials themselves as 'run' messages (src/pool/threads.ts; the thread is started,
// and replaced once it has been ready, by src/pool/thread-set.ts).
import { MessageChannel, parentPort, workerData } from 'node:worker_threads';
import { THREAD_PORT, type MainMessage, type WorkerMessage } from '../pool/messages.ts';
import type { ThreadData } from '../pool/threads.ts';
import { collectBootGarbage } from './collect.ts';
import { createWorkerLoop } from './init.ts';
import { PhaseBoard } from '../pool/phase-board.ts';
import { preloadAgent } from '../trial/agent-phase.ts';
import { preloadProvider } from '../trial/session.ts';

if (!parentPort) throw new Error('internal: the thread entry runs only inside a worker thread');
const { port1: mainSide, port2: port } = new MessageChannel();
parentPort.postMessage({ [THREAD_PORT]: mainSide }, [mainSide]);

// Messages go out in batches. Each postMessage wakes the main thread; at four a trial they were the
// largest item of a worker's profile (~20% of a one-call trial, --cpu-prof). A result leaves at the
// end of this turn of the event loop when this thread has no trial waiting for a place (the main
// side's answer is its next trial), else within HOLD_MS or once --per-worker messages wait: this
// thread starts its waiting trials itself meanwhile (init.ts), so that holding a result costs it
// nothing, and the main side wakes about once per place rather than once per trial.
const HOLD_MS = 2;
let batch: WorkerMessage[] | null = null;
const flush = () => {
  const out = batch;
  batch = null;
  if (out) port.postMessage(out.length === 1 ? out[0] : out);
};
// Sent at once, with whatever is batched before them: the agent phase's start and end when the
// trial has no slot on the phase board (the code after either may block this thread's event loop,
// and the main side's watchdog runs exactly in between), a sandbox (the main side removes it if this
// thread dies), the answer to a ping.
const urgent = (msg: WorkerMessage) => msg.type === 'agent' || msg.type === 'sandbox' || msg.type === 'pong';
let due: 'turn' | 'hold' | null = null;
let holdTimer: NodeJS.Timeout | undefined;
const flushLater = () => {
  due = null;
  clearTimeout(holdTimer);
  if (batch) flush();
};
const send = (msg: WorkerMessage) => {
  if (!batch) batch = [];
  batch.push(msg);
  if (urgent(msg)) return flush();
  if (loop.waiting === 0 || batch.length >= holdMax) {
    if (due === 'turn') return;
    clearTimeout(holdTimer);
    due = 'turn';
    setImmediate(flushLater);
  } else if (!due) {
    due = 'hold';
    holdTimer = setTimeout(flushLater, HOLD_MS);
  }
};
const data = workerData as ThreadData;
const holdMax = data.perWorker;
const loop = createWorkerLoop(send, PhaseBoard.attach(data.board), data.perWorker);
// The main side batches its messages too (src/pool/threads.ts): one, or an array of them in order.
port.on('message', (msg: MainMessage | MainMessage[]) => {
  if (Array.isArray(msg)) for (const m of msg) loop.handle(m);
  else loop.handle(msg);
});
// What the first model call needs is loaded with this module (chat-http.ts, on node:http), before
// the main side hears that this thread is ready. The agent module starts loading after that, so that
// the first trial finds it loaded or loading: an agent that crashes its worker while loading must do
// so once the thread is ready, as before (no new thread is started after one that failed booting).
// The run's sandbox provider too (a cluster's client library, say), so that no trial waits for it.
await preloadProvider(data.boot.sandbox);
port.postMessage({ type: 'ready' } satisfies WorkerMessage);
setImmediate(() => {
  void Promise.all(data.boot.agents.map(preloadAgent)).then(() => {
    collectBootGarbage();
    port.postMessage({ type: 'loaded' } satisfies WorkerMessage);
  });
});
