// The worker loop over a child process's IPC channel.
import { toErrorValue } from '../errors.ts';
import type { MainMessage, WorkerMessage } from '../pool/messages.ts';
import { createWorkerLoop } from './init.ts';
import { preloadAgent } from '../trial/agent-phase.ts';
import { guardStdio } from '../cli/stdio.ts';

// process.send is there in a process started with an IPC channel (forks.ts), which this one is.
const send = (msg: WorkerMessage) => {
  if (process.connected) process.send?.(msg);
};
// --per-worker trials at once; the main side gives this process its next ones too (pool/forks.ts), which wait here.
const loop = createWorkerLoop(send, undefined, Number(process.argv[3]) || Infinity);
process.on('message', (msg) => loop.handle(msg as MainMessage));
// Ctrl-C in a terminal reaches the whole process group: the main process owns it and cancels our
// trials by message so that their cleanup runs; dying here would skip every `finally`.
// A closed terminal hangs up the whole group as well (SIGHUP): the same.
process.on('SIGINT', () => {});
process.on('SIGHUP', () => {});
// stdout is the user's (inherited): once its pipe or terminal is gone, an agent's output is dropped.
guardStdio();
// The main process is gone: nothing would read our results.
process.on('disconnect', () => process.exit(0));
// An agent's uncaught exception: the worker's state is unknown, so it says why and ends; the main
// side fails its in-flight trials with this cause and starts a new worker.
process.on('uncaughtException', (err) => {
  const error = toErrorValue(err, 'agent');
  if (process.connected && process.send)
    process.send({ type: 'fatal', error } satisfies WorkerMessage, () => process.exit(70));
  else process.exit(70);
});
// What the first model call needs is loaded with this module (chat-http.ts, on node:http; the
// fetch classes it once warmed here are no longer on that path). The agent modules (forks.ts passes
// their names and paths: the process boots before its run exists) start loading right after the main side hears that this worker is ready, so
// that the first trial finds it loaded or loading: an agent that crashes its worker while loading
// must do so once the worker is ready, as before (workers that die booting end the run).
send({ type: 'ready' });
const agents = process.argv[2] ? (JSON.parse(process.argv[2]) as Array<{ name: string; module?: string }>) : [];
void Promise.all(agents.map(preloadAgent)).then(() => send({ type: 'loaded' }));
