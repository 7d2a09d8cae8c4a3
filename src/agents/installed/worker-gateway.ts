// One model gateway per worker process or thread (docs/agents.md#installed-agents), started by its first installed-agent
// trial. Why per worker and not one in the main process: the gateway's callbacks (llm_call and
// tool_call events, the budget stop, model errors) must reach the trial's recorder, which lives in
// the worker; a gateway beside it needs no new pool messages, and it is cheap (one HTTP server).
// The `--llm-cache` folder is shared safely (atomic writes). Each listens on its own unix socket in
// the run's socket folder, which every sandbox of the run mounts read-only; a trial's token works
// only on its own gateway.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { gatewayForRun, type ModelGateway } from '../../gateway/index.ts';
import type { RunContext } from '../../trial/types.ts';

export interface WorkerGateway {
  gateway: ModelGateway;
  /** The socket's file name inside the run's socket folder. */
  socketName: string;
}

const gateways = new Map<string, Promise<WorkerGateway>>();

export function workerGateway(run: RunContext): Promise<WorkerGateway> {
  const installed = run.installed!;
  let p = gateways.get(run.runId);
  if (!p) {
    p = (async () => {
      const gateway = gatewayForRun(run.llm.agent, run.llmCache);
      await gateway.start();
      const socketName = `${process.pid}-${threadId}.sock`;
      const path = join(installed.socketDir, socketName);
      rmSync(path, { force: true });
      await gateway.listenUnix(path);
      // The TCP listener must not keep a finished worker alive either.
      process.once('exit', () => rmSync(path, { force: true }));
      return { gateway, socketName };
    })();
    gateways.set(run.runId, p);
    p.catch(() => gateways.delete(run.runId));
  }
  return p;
}
