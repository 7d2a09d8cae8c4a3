// A job's cells: every benchmark × agent × model, each an ordinary run (docs/running.md#jobs), with
// the configuration layer that makes it that run (the agent, its options and id; the model, its
// endpoint, key and price) over the job's own flags.
import { basename } from 'node:path';
import { BenchrigError } from '../errors.ts';
import { safeName } from '../run/run-dir.ts';
import { agentIdOf, type JobAgent, type JobModel, type JobSpec } from './file.ts';

/** A cell's model in job.json and the report when the job names none: each run's own configured model. */
export const CONFIGURED_MODEL = '(configured)';

export interface Cell {
  /** File-safe, unique in the job: its run folder's name. */
  id: string;
  benchmark: string;
  agent: JobAgent;
  agentId: string;
  /** None: the job names no model, and each run takes the model it is configured with. */
  model?: JobModel;
  /** What names the cell in reports: `agent · model`, or the agent alone. */
  label: string;
}

export function cellsOf(job: JobSpec): Cell[] {
  const cells: Cell[] = [];
  for (const benchmark of job.benchmarks)
    for (const agent of job.agents)
      for (const model of job.models.length ? job.models : [undefined]) {
        const agentId = agentIdOf(agent);
        const bench = basename(benchmark.replace(/[\\/]+$/, ''));
        cells.push({
          id: safeName(model ? `${bench}__${agentId}__${model.name}` : `${bench}__${agentId}`),
          benchmark,
          agent,
          agentId,
          ...(model ? { model } : {}),
          label: model ? `${agentId} · ${model.name}` : agentId,
        });
      }
  return cells;
}

/** The cell's configuration layer: the job's flags, then its agent and model (over every file). */
export function cellFlags(
  job: JobSpec,
  cell: Cell,
  base: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
): Record<string, unknown> {
  const m = cell.model;
  const key = m?.api_key_env === undefined ? undefined : env[m.api_key_env];
  if (m?.api_key_env !== undefined && !key)
    throw new BenchrigError(
      'config',
      `model ${m.name}: its key variable ${m.api_key_env} is not set (models.api_key_env); set it or drop the key`,
    );
  const llm = m && {
    model: m.name,
    ...(m.base_url ? { base_url: m.base_url } : {}),
    ...(key ? { api_key: key } : {}),
    ...(m.price ? { price: m.price } : {}),
  };
  const agent = {
    name: cell.agent.name,
    id: cell.agentId,
    ...(cell.agent.options ? { options: cell.agent.options } : {}),
  };
  return {
    ...base,
    ...(job.n_trials ? { n_trials: job.n_trials } : {}),
    limits: { ...(base.limits as object), ...job.limits },
    run: { ...(base.run as object), ...job.run },
    agent,
    ...(llm ? { llm } : {}),
  };
}
