// One model gateway per worker process or thread (docs/agents.md#installed-agents), started by its first installed-agent
// trial. Why per worker and not one in the main process: the gateway's callbacks (llm_call and
// tool_call events, the budget stop, model errors) must reach the trial's recorder, which lives in
// the worker; a gateway beside it needs no new pool messages, and it is cheap (one HTTP server).
// The `--llm-cache` folder is shared safely (atomic writes). Each listens on its own unix socket in
// the run's socket folder, which every sandbox of the run mounts read-only; a trial's token works
// only on its own gateway. At the run's end the main process closes its own (closeRunGateways:
// single mode under a debugger runs trials there); a worker's goes with its thread or process when
// the pool closes.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { gatewayForRun, type ModelGateway } from '../../gateway/index.ts';
import type { RunContext } from '../../trial/types.ts';

interface WorkerGateway {
  gateway: ModelGateway;
  /** The socket's file name inside the run's socket folder. */
  socketName: string;
}

interface Started extends WorkerGateway {
  path: string;
}

const gateways = new Map<string, Promise<Started>>();

export function workerGateway(run: RunContext): Promise<WorkerGateway> {
  const installed = run.installed;
  if (!installed) throw new Error('internal: a worker gateway for a run without an installed agent');
  let p = gateways.get(run.runId);
  if (!p) {
    p = (async () => {
      const gateway = gatewayForRun(run.llm.agent, run.llmCache);
      await gateway.start();
      const socketName = `${process.pid}-${threadId}.sock`;
      const path = join(installed.socketDir, socketName);
      rmSync(path, { force: true });
      await gateway.listenUnix(path);
      // A worker that exits without closeRunGateways (killed by the pool) leaves no socket file either.
      process.once('exit', () => rmSync(path, { force: true }));
      return { gateway, socketName, path };
    })();
    gateways.set(run.runId, p);
    p.catch(() => gateways.delete(run.runId));
  }
  return p;
}

/** Closes this process's (or thread's) gateway of the run, if one was started: its listeners and socket file. */
export async function closeRunGateways(runId: string): Promise<void> {
  const p = gateways.get(runId);
  if (!p) return;
  gateways.delete(runId);
  const started = await p.catch(() => null);
  if (!started) return;
  try {
    await started.gateway.close();
  } finally {
    rmSync(started.path, { force: true });
  }
}
