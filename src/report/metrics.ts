// Every metric of docs/reports.md#metrics, accumulated one trial at a time so a report never holds all results:
// only per-task counters, per-check counters and one execution time per trial are kept.
import {
  GRADABLE_STATUSES,
  INFRA_STATUSES,
  MISSING_STATUSES,
  TRIAL_STATUSES,
  type TrialResult,
  type TrialStatus,
} from '../types.ts';
import type { CheckStats, Metrics, TaskStats } from './types.ts';
import { mean, passAtK, passHatK, percentile, ratio, wilson } from './stats.ts';

interface MetricsOptions {
  /** `blocks_are_success`: a red-team suite, where safety_violation_rate applies. */
  blocksAreSuccess: boolean;
}

/** The sample's metadata as the trial recorded it (lifecycle copies it to `sample_metadata`). */
function isBenign(r: TrialResult): boolean {
  const sm = r.metadata?.sample_metadata as Record<string, unknown> | undefined;
  return sm?.benign === true || r.metadata?.benign === true;
}

/** A refusal without a guardrail block, when the agent or a hook marked one. */
const refused = (r: TrialResult) => r.blocked || r.metadata?.refused === true;

const bump = (m: Record<string, number>, key: string, by = 1) => {
  m[key] = (m[key] ?? 0) + by;
};

const KNOWN_STATUSES: ReadonlySet<string> = new Set(TRIAL_STATUSES);

type TaskAcc = Omit<TaskStats, 'flaky'>;
/** Per task: the sum of its gradable trials' scores (→ mean_score). */
type ScoreSums = Map<string, number>;

export class MetricsAccumulator {
  private trials = 0;
  private status = Object.fromEntries(TRIAL_STATUSES.map((s) => [s, 0])) as Record<TrialStatus, number>;
  private scoreSum = 0;
  private blocked = 0;
  private attacks = 0;
  private violations = 0;
  private benign = 0;
  private benignRefused = 0;
  private times: number[] = [];
  private llmCalls = 0;
  private userLlmCalls = 0;
  private tokens = { input: 0, output: 0 };
  private cost: number | null = null;
  private unpriced = new Set<string>();
  private tools: Record<string, number> = {};
  private stops: Record<string, number> = {};
  private errors: Record<string, number> = {};
  private tasks = new Map<string, TaskAcc>();
  private taskScores: ScoreSums = new Map();
  private checks = new Map<string, { name: string; type: string; n: number; passed: number; score: number }>();
  /** Sums of each named reward of `reward` checks over gradable trials; null: no reward check seen. */
  private rewards: Map<string, number> | null = null;

  constructor(private readonly opts: MetricsOptions) {}

  add(r: TrialResult): void {
    this.trials++;
    const status: TrialStatus = KNOWN_STATUSES.has(r.status) ? r.status : 'UNGRADABLE';
    this.status[status]++;
    const gradable = GRADABLE_STATUSES.has(status);
    const passed = status === 'PASSED';
    // A gradable trial without a score (an agent that crashed before any check) scores 0.
    if (gradable) this.scoreSum += r.score ?? 0;

    if (r.blocked) this.blocked++;
    if (isBenign(r)) {
      if (!INFRA_STATUSES.includes(status)) {
        this.benign++; // no verdict in a SANDBOX_ERROR or MODEL_ERROR trial: nothing to weigh a refusal against
        if (refused(r)) this.benignRefused++;
      }
    } else if (this.opts.blocksAreSuccess && gradable) {
      this.attacks++;
      if (!r.blocked && !passed) this.violations++;
    }

    const md = r.metadata ?? ({} as TrialResult['metadata']);
    if (typeof md.execution_time_s === 'number') this.times.push(md.execution_time_s);
    this.llmCalls += md.llm_calls ?? 0;
    this.userLlmCalls += md.user_llm_calls ?? 0;
    this.tokens.input += md.tokens?.input ?? 0;
    this.tokens.output += md.tokens?.output ?? 0;
    if (typeof md.cost_usd === 'number') this.cost = (this.cost ?? 0) + md.cost_usd;
    for (const m of md.unpriced_models ?? []) this.unpriced.add(m);
    const tools = md.tools_used;
    if (tools) for (const tool in tools) if (Object.hasOwn(tools, tool)) bump(this.tools, tool, tools[tool]);
    if (r.stop_reason) bump(this.stops, r.stop_reason);
    if (r.error) bump(this.errors, r.error.kind);

    let task = this.tasks.get(r.sample_id);
    if (!task) {
      task = {
        sample_id: r.sample_id,
        input_hash: md.input_hash ?? '',
        trials: 0,
        passed: 0,
        gradable: 0,
        statuses: {},
        cost_usd: null,
        task_id: r.task_id,
      };
      this.tasks.set(r.sample_id, task);
    }
    // The trial a link to the task opens (job report): its first trial that did not pass, if any.
    if (!passed && task.passed === task.trials) task.task_id = r.task_id;
    task.trials++;
    if (gradable) this.taskScores.set(r.sample_id, (this.taskScores.get(r.sample_id) ?? 0) + (r.score ?? 0));
    if (typeof md.cost_usd === 'number') task.cost_usd = (task.cost_usd ?? 0) + md.cost_usd;
    if (gradable) task.gradable++;
    if (passed) task.passed++;
    task.statuses[status] = (task.statuses[status] ?? 0) + 1;

    for (const v of r.checks ?? []) {
      if (v.type === 'reward') {
        this.rewards ??= new Map();
        const named = (v.details?.rewards ?? {}) as Record<string, unknown>;
        for (const [k, x] of Object.entries(named))
          if (gradable && typeof x === 'number') this.rewards.set(k, (this.rewards.get(k) ?? 0) + x);
      }
      let c = this.checks.get(v.name);
      if (!c) this.checks.set(v.name, (c = { name: v.name, type: v.type, n: 0, passed: 0, score: 0 }));
      if (v.passed !== null) {
        c.n++;
        c.score += typeof v.score === 'number' && Number.isFinite(v.score) ? v.score : 0;
      }
      if (v.passed === true) c.passed++;
    }
  }

  finish(): { metrics: Metrics; checks: CheckStats[]; tasks: TaskStats[] } {
    const gradable = TRIAL_STATUSES.filter((s) => GRADABLE_STATUSES.has(s)).reduce((n, s) => n + this.status[s], 0);
    const passed = this.status.PASSED;
    const missing = MISSING_STATUSES.reduce((n, s) => n + this.status[s], 0);
    const tasks = [...this.tasks.values()];
    const graded = tasks.filter((t) => t.gradable > 0);
    const maxK = Math.max(0, ...graded.map((t) => t.gradable));
    const passAt: Record<string, number> = {};
    const passHat: Record<string, number> = {};
    // Some task has k gradable trials, as k ≤ maxK: the means are over at least one task.
    const some = (m: number | null) => {
      if (m === null) throw new Error('internal: pass@k over no task');
      return m;
    };
    for (let k = 1; k <= maxK; k++) {
      const eligible = graded.filter((t) => t.gradable >= k);
      passAt[k] = some(mean(eligible.map((t) => passAtK(t.gradable, t.passed, k))));
      passHat[k] = some(mean(eligible.map((t) => passHatK(t.gradable, t.passed, k))));
    }
    // a typed copy sorts by value without a comparator: ~4x faster than one at a million trials
    const sorted = Float64Array.from(this.times).sort();
    const metrics: Metrics = {
      n_trials: this.trials,
      n_tasks: tasks.length,
      n_gradable: gradable,
      n_passed: passed,
      n_missing: missing,
      missing_rate: ratio(missing, this.trials),
      status_counts: { ...this.status },
      pass_rate: ratio(passed, gradable),
      pass_rate_ci95: wilson(passed, gradable),
      pass_all_k: ratio(graded.filter((t) => t.passed === t.gradable).length, graded.length),
      pass_at_k: ratio(graded.filter((t) => t.passed > 0).length, graded.length),
      pass_at: passAt,
      pass_hat: passHat,
      mean_score: ratio(this.scoreSum, gradable),
      ungradable_rate: ratio(this.status.UNGRADABLE, this.trials),
      agent_error_rate: ratio(this.status.AGENT_ERROR, this.trials),
      timeout_rate: ratio(this.status.TIMEOUT, this.trials),
      infra_error_rate: ratio(this.status.SANDBOX_ERROR + this.status.MODEL_ERROR, this.trials),
      guardrail_block_rate: ratio(this.blocked, this.trials),
      safety_violation_rate: this.opts.blocksAreSuccess ? ratio(this.violations, this.attacks) : null,
      over_refusal_rate: ratio(this.benignRefused, this.benign),
      execution_time_s: {
        mean: mean(sorted),
        p50: percentile(sorted, 0.5),
        p95: percentile(sorted, 0.95),
        max: sorted.length > 0 ? sorted[sorted.length - 1] : null,
      },
      llm_calls: { total: this.llmCalls, user_total: this.userLlmCalls, mean: ratio(this.llmCalls, this.trials) },
      tokens: { ...this.tokens },
      cost_usd: this.cost,
      ...(this.unpriced.size ? { unpriced_models: [...this.unpriced].sort() } : {}),
      tools_used: { ...this.tools },
      stop_reasons: { ...this.stops },
      error_kinds: { ...this.errors },
      ...(this.rewards
        ? { rewards: Object.fromEntries([...this.rewards].map(([k, s]) => [k, gradable ? s / gradable : 0])) }
        : {}),
    };
    const checks = [...this.checks.values()].map((c) => ({
      name: c.name,
      type: c.type,
      n_gradable: c.n,
      pass_rate: ratio(c.passed, c.n),
      mean_score: ratio(c.score, c.n),
    }));
    // The accumulator's own entries become the report's (one entry per sample: not copied).
    const taskStats = tasks.map((t) =>
      Object.assign(t, {
        mean_score: ratio(this.taskScores.get(t.sample_id) ?? 0, t.gradable),
        flaky: t.passed > 0 && t.passed < t.gradable,
      }),
    );
    return { metrics, checks, tasks: taskStats };
  }
}

/** What a check's mean score is called in the report's check tables: MRR for `reciprocal_rank` (docs/checks.md#retrieval). */
export const meanScoreLabel = (type: string): string => (type === 'reciprocal_rank' ? 'MRR' : 'mean score');

/** All metrics of a set of results at once (tests, small runs). */
export function computeMetrics(results: Iterable<TrialResult>, opts: MetricsOptions = { blocksAreSuccess: false }) {
  const acc = new MetricsAccumulator(opts);
  for (const r of results) acc.add(r);
  return acc.finish();
}
