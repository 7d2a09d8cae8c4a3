// The worker loop inside a piscina thread. The RunContext arrives once, as the thread's workerData
// (the 'init' message); each piscina task is one trial and carries a MessagePort over which every
// message of that trial travels both ways, the result included, so that they arrive in order.
import type { MessagePort } from 'node:worker_threads';
import { threadId, workerData } from 'node:worker_threads';
import type { MainMessage, TrialMessage, WorkerMessage } from '../pool/messages.ts';
import type { RunContext, TrialInput } from '../trial/types.ts';
import { createWorkerLoop } from './init.ts';
import { preloadAgent } from '../trial/agent-phase.ts';
import { preloadLlmClient } from '../llm/client.ts';

export interface ThreadTask {
  id: number;
  trial: TrialInput;
  events: boolean;
  port: MessagePort;
}

const ports = new Map<number, { port: MessagePort; done(): void }>();

const loop = createWorkerLoop((msg: WorkerMessage) => {
  if (!('id' in msg)) return;
  const entry = ports.get((msg as TrialMessage).id);
  entry?.port.postMessage(msg);
  if (msg.type === 'result' || msg.type === 'failed') entry?.done();
});
const run = (workerData as { run: RunContext }).run;
loop.handle({ type: 'init', run });
// What the first model call loads, before piscina hears that this thread is ready (this module's
// evaluation ends). The agent module starts loading just after that, so that the first trial finds
// it loaded or loading: an agent that crashes its worker while loading must do so once the thread is
// ready, as before (piscina starts no new thread after one that failed booting).
await preloadLlmClient();
setImmediate(() => void preloadAgent(run.agent));

/** One trial; resolves once its result has been posted on its port. */
export default function runTask(task: ThreadTask): Promise<void> {
  return new Promise<void>((resolve) => {
    ports.set(task.id, { port: task.port, done: resolve });
    task.port.on('message', (msg: MainMessage) => loop.handle(msg));
    task.port.postMessage({ type: 'thread', id: task.id, threadId } satisfies WorkerMessage);
    loop.handle({ type: 'run', id: task.id, trial: task.trial, events: task.events });
  }).finally(() => ports.delete(task.id));
}
