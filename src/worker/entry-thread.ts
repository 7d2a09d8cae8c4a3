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

const loop = createWorkerLoop((msg: WorkerMessage) => {
  port.postMessage(msg);
  if (msg.type === 'result' || msg.type === 'failed') {
    finished.get(msg.id)?.();
    finished.delete(msg.id);
  }
});
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
    port.postMessage({ type: 'thread', id: task.id, threadId } satisfies WorkerMessage);
    loop.handle({ type: 'run', id: task.id, trial: task.trial, events: task.events });
  });
}
