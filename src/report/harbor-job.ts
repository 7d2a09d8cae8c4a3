// A benchrig run as Harbor's job folder (docs/export.md#harbor): the job's config.json and
// result.json, and per trial its config.json and result.json in the shape of Harbor's job and trial
// models. Pure: the files' contents; export.ts writes them.
import { createHash } from 'node:crypto';
import { basename, dirname } from 'node:path';
import { ERROR_STATUSES, type TrialResult } from '../types.ts';
import type { AtifAgent } from './atif.ts';

export interface JobInfo {
  /** The job folder (the export's --out). */
  dir: string;
  run_id: string;
  benchmark: string;
  benchmark_dir: string;
  agent: AtifAgent;
  trials: number;
  started_at: string;
  finished_at: string | null;
}

/** A UUID made from names: the same run exports to the same ids. */
function uuidOf(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\0')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const agentConfig = (job: JobInfo) => ({
  name: job.agent.name,
  ...(job.agent.model_name ? { model_name: job.agent.model_name } : {}),
});

export function trialConfig(job: JobInfo, r: TrialResult, name: string) {
  return {
    task: { path: `${job.benchmark_dir}/${r.sample_id}`, source: job.benchmark },
    trial_name: name,
    trials_dir: job.dir,
    agent: agentConfig(job),
    job_id: uuidOf(job.run_id),
  };
}

/**
 * The trial's lock.json: what Harbor resolved before running it. Harbor's viewer lists only trials
 * that have one. The task's digest is made from the sample's input hash (a sha256 as Harbor wants).
 */
export function trialLock(job: JobInfo, r: TrialResult) {
  return {
    schema_version: 1,
    task: {
      name: r.sample_id,
      type: 'local',
      digest: `sha256:${createHash('sha256').update(`${job.benchmark}\0${r.metadata.input_hash}`).digest('hex')}`,
      source: job.benchmark,
      path: `${job.benchmark_dir}/${r.sample_id}`,
    },
    agent: agentConfig(job),
    environment: {},
    verifier: {},
  };
}

/** Gradable trials carry their score as the reward; a trial without a verdict has none. */
const rewardOf = (r: TrialResult): number | null => (r.score === null ? null : r.score);

export function trialResult(job: JobInfo, r: TrialResult, name: string) {
  const reward = rewardOf(r);
  const cached = r.events.reduce((n, e) => n + (e.type === 'llm_call' ? (e.tokens.cached ?? 0) : 0), 0);
  const failed = r.error && ERROR_STATUSES.has(r.status);
  return {
    schema_version: 1,
    id: uuidOf(job.run_id, r.task_id),
    task_name: r.sample_id,
    trial_name: name,
    trial_uri: `file://${job.dir}/${name}`,
    task_id: { path: `${job.benchmark_dir}/${r.sample_id}` },
    source: job.benchmark,
    task_checksum: r.metadata.input_hash,
    config: trialConfig(job, r, name),
    agent_info: {
      name: job.agent.name,
      version: job.agent.version,
      ...(job.agent.model_name ? { model_info: { name: job.agent.model_name } } : {}),
    },
    agent_result: {
      n_input_tokens: r.metadata.tokens.input,
      n_cache_tokens: cached,
      n_output_tokens: r.metadata.tokens.output,
      cost_usd: r.metadata.cost_usd ?? null,
      metadata: { benchrig: { task_id: r.task_id, status: r.status, stop_reason: r.stop_reason, checks: r.checks } },
    },
    verifier_result: reward === null ? null : { rewards: { reward } },
    exception_info:
      failed && r.error
        ? {
            exception_type: r.error.kind,
            exception_message: r.error.message,
            exception_traceback: r.error.cause ?? '',
            occurred_at: r.finished_at,
          }
        : null,
    started_at: r.started_at,
    finished_at: r.finished_at,
    agent_execution: { started_at: r.started_at, finished_at: r.finished_at },
  };
}

export function jobConfig(job: JobInfo) {
  return {
    schema_version: 1,
    job_name: basename(job.dir),
    jobs_dir: dirname(job.dir),
    n_attempts: job.trials,
    agents: [agentConfig(job)],
    tasks: [],
    datasets: [],
  };
}

type Summary = Pick<TrialResult, 'status' | 'score' | 'error' | 'metadata' | 'events'> & { name: string };

/** The job's result.json: its stats in the shape of Harbor's JobStats. */
export function jobResult(job: JobInfo, trials: Summary[]) {
  const evalKey = `${job.agent.name}__${job.agent.model_name ? `${job.agent.model_name}__` : ''}${job.benchmark}`;
  const rewardStats: Record<string, string[]> = {};
  const exceptionStats: Record<string, string[]> = {};
  let nErrors = 0;
  let nRewarded = 0;
  let rewardSum = 0;
  const totals = { input: 0, output: 0, cost: null as number | null };
  for (const t of trials) {
    if (t.score !== null) {
      nRewarded++;
      rewardSum += t.score;
      (rewardStats[String(t.score)] ??= []).push(t.name);
    }
    if (t.error && ERROR_STATUSES.has(t.status)) {
      nErrors++;
      (exceptionStats[t.error.kind] ??= []).push(t.name);
    }
    totals.input += t.metadata.tokens.input;
    totals.output += t.metadata.tokens.output;
    if (typeof t.metadata.cost_usd === 'number') totals.cost = (totals.cost ?? 0) + t.metadata.cost_usd;
  }
  return {
    schema_version: 1,
    id: uuidOf(job.run_id),
    started_at: job.started_at,
    updated_at: job.finished_at ?? job.started_at,
    finished_at: job.finished_at,
    n_total_trials: trials.length,
    stats: {
      n_completed_trials: trials.length,
      n_errored_trials: nErrors,
      evals: {
        [evalKey]: {
          n_trials: nRewarded,
          n_errors: nErrors,
          metrics: nRewarded ? [{ mean: rewardSum / nRewarded }] : [],
          reward_stats: { reward: rewardStats },
          exception_stats: exceptionStats,
        },
      },
      n_input_tokens: totals.input,
      n_output_tokens: totals.output,
      cost_usd: totals.cost,
    },
  };
}
