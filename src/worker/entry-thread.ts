// The worker loop inside a piscina thread. The RunContext arrives once, as the thread's workerData
// (the 'init' message); each piscina task is one trial. Every message of every trial travels both
// ways over one MessagePort of this thread's, handed to the main side as the thread boots (before
// piscina's ready message), the result included, so that a trial's messages arrive in order.
import { MessageChannel, parentPort, threadId, workerData } from 'node:worker_threads';
import { THREAD_PORT, type MainMessage, type WorkerMessage } from '../pool/messages.ts';
import type { RunContext, TrialInput } from '../trial/types.ts';
import { createWorkerLoop } from './init.ts';
import { preloadAgent } from '../trial/agent-phase.ts';
import { preloadLlmClient } from '../llm/client.ts';

export interface ThreadTask {
  id: number;
  trial: TrialInput;
  events: boolean;
}

const { port1: mainSide, port2: port } = new MessageChannel();
parentPort!.postMessage({ [THREAD_PORT]: mainSide, threadId }, [mainSide]);

/** The piscina task of each trial in flight: it ends once the trial's result is posted. */
const finished = new Map<number, () => void>();

// Messages go out in batches, at the latest at the end of this turn of the event loop: a trial's
// 'thread' leaves with its 'agent start', its result with other trials' messages of the same turn.
// Each postMessage wakes the main thread; at four a trial they were the largest item of a worker's
// profile (~20% of a one-call trial, --cpu-prof). A piscina task ends once its result is posted.
let batch: WorkerMessage[] | null = null;
const ended: Array<() => void> = [];
const flush = () => {
  const out = batch!;
  batch = null;
  port.postMessage(out.length === 1 ? out[0] : out);
  for (const end of ended.splice(0)) end();
};
// Sent at once, with whatever is batched before them: the agent phase's start and end (the code
// after either may block this thread's event loop, and the main side's watchdog runs exactly in
// between), a sandbox (the main side removes it if this thread dies), the answer to a ping.
const urgent = (msg: WorkerMessage) => msg.type === 'agent' || msg.type === 'sandbox' || msg.type === 'pong';
let scheduled = false;
const send = (msg: WorkerMessage) => {
  if (!batch) batch = [];
  batch.push(msg);
  if (urgent(msg)) return flush();
  if (!scheduled) {
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      if (batch) flush();
    });
  }
  if (msg.type === 'result' || msg.type === 'failed') {
    const end = finished.get(msg.id);
    finished.delete(msg.id);
    if (end) ended.push(end);
  }
};
const loop = createWorkerLoop(send);
port.on('message', (msg: MainMessage) => loop.handle(msg));
const run = (workerData as { run: RunContext }).run;
loop.handle({ type: 'init', run });
// What the first model call loads, before piscina hears that this thread is ready (this module's
// evaluation ends). The agent module starts loading just after that, so that the first trial finds
// it loaded or loading: an agent that crashes its worker while loading must do so once the thread is
// ready, as before (piscina starts no new thread after one that failed booting).
await preloadLlmClient();
setImmediate(() => void preloadAgent(run.agent));

/** One trial; resolves once its result has been posted. */
export default function runTask(task: ThreadTask): Promise<void> {
  return new Promise<void>((resolve) => {
    finished.set(task.id, resolve);
    // Through the batch, so that it leaves with the trial's first messages.
    send({ type: 'thread', id: task.id, threadId });
    loop.handle({ type: 'run', id: task.id, trial: task.trial, events: task.events });
  });
}
