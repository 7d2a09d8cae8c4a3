// The runs of one agent on one benchmark (`evals/<agent>/<benchmark>/`): the trend (`benchrig
// history`) and the `auto` baseline of `run --baseline` (the latest earlier run that graded something).
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { BenchrigError } from '../errors.ts';
import { answeredNothing, loadBaselineReport } from './compare.ts';
import { agentIdentity } from './compare-checks.ts';
import type { EvaluationReport, RunJsonSeen } from './types.ts';

interface RunEntry {
  dir: string;
  /** The folder name: `YYYYMMDD-HHMMSS[-N]`. */
  name: string;
  started_at: string | null;
  /** From evaluation_report.json, else run.json. */
  version: string | null;
  status: string;
  report: EvaluationReport | null;
  runJson: RunJsonSeen | null;
}

export interface HistoryRow {
  name: string;
  /** The benchmark's identity (run.json's benchmark.id; null for a run from before it was recorded). */
  benchmark_id: string | null;
  /** The folder it was loaded from (null when run.json does not say). */
  benchmark_dir: string | null;
  dir: string;
  /** run.json's run_id (null when neither file names it). */
  run_id: string | null;
  /** `run --label` and `--note`. */
  label: string | null;
  run_note: string | null;
  /** The agent module (path and sha256 of its content); null for a built-in agent or an older run. */
  agent_module: string | null;
  agent_sha256: string | null;
  /** True when the agent (its module's hash, or a built-in's name) differs from the run before that records one. */
  agent_changed: boolean;
  started_at: string | null;
  version: string | null;
  /** True when the version differs from the row before (the first row: false). */
  version_changed: boolean;
  status: string;
  trials: number | null;
  pass_rate: number | null;
  pass_rate_ci95: [number, number] | null;
  mean_score: number | null;
  gate: { metric: string; threshold: number; value: number | null; passed: boolean; detail: string } | null;
  /** Why the run has no numbers, or why it could never be a baseline. */
  note: string | null;
}

async function readJsonOrNull(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return null; // missing or half-written: the run shows without it
  }
}

/** Every run folder (one holding run.json or a report) under `parent`, oldest first. */
export async function listRuns(parent: string): Promise<RunEntry[]> {
  let names: string[];
  try {
    names = await readdir(parent);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw err;
  }
  const runs: RunEntry[] = [];
  for (const name of names) {
    const dir = join(parent, name);
    if (name.startsWith('.') || !(await stat(dir)).isDirectory()) continue;
    const report = (await readJsonOrNull(join(dir, 'evaluation_report.json'))) as EvaluationReport | null;
    const runJson = (await readJsonOrNull(join(dir, 'run.json'))) as RunJsonSeen | null;
    if (!report && !runJson) continue;
    runs.push({
      dir,
      name,
      started_at: report?.run?.started_at ?? runJson?.started_at ?? null,
      version: report?.benchmark?.version ?? runJson?.benchmark?.version ?? null,
      status: report?.run?.status ?? runJson?.status ?? 'unknown',
      report: report && report.metrics ? report : null,
      runJson,
    });
  }
  // Timestamps order runs; the folder name (same clock, suffixed when taken) breaks ties. Both are
  // ASCII of one fixed shape: compared by code unit, as localeCompare orders them, without loading
  // ICU's collator (~2 MB resident in the process that first sorts: every run's, at load).
  return runs.sort((a, b) => byCodeUnit(a.started_at ?? '', b.started_at ?? '') || byCodeUnit(a.name, b.name));
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export async function history(parent: string): Promise<HistoryRow[]> {
  const st = await stat(parent).catch(() => null);
  if (!st?.isDirectory())
    throw new BenchrigError('usage', `${parent}: not a folder (expected evals/<agent-id>/<benchmark>)`);
  const runs = await listRuns(parent);
  if (runs.length === 0)
    throw new BenchrigError(
      'usage',
      `${parent}: no runs here (expected evals/<agent-id>/<benchmark>, holding one folder per run)`,
    );
  // One trend per identity: two folders with one name never share one (docs/benchmarks.md#identity).
  const prev = new Map<string | null, string | null>();
  const prevAgent = new Map<string | null, string>();
  return runs.map((r) => {
    const id = identityOf(r);
    const m = r.report?.metrics;
    const g = r.report?.gate;
    const agent = agentOf(r);
    const who = agent && agentIdentity(agent);
    const row: HistoryRow = {
      name: r.name,
      benchmark_id: id,
      benchmark_dir: r.runJson?.benchmark?.dir ?? null,
      dir: r.dir,
      run_id: r.report?.run?.id ?? r.runJson?.run_id ?? null,
      label: r.report?.run?.label ?? r.runJson?.label ?? null,
      run_note: r.report?.run?.note ?? r.runJson?.note ?? null,
      agent_module: agent?.module ?? null,
      agent_sha256: agent?.sha256 ?? null,
      agent_changed: !!who && prevAgent.has(id) && who !== prevAgent.get(id),
      started_at: r.started_at,
      version: r.version,
      version_changed: prev.has(id) && r.version !== prev.get(id),
      status: r.status,
      trials: m ? m.n_trials : null,
      pass_rate: m ? m.pass_rate : null,
      pass_rate_ci95: m ? m.pass_rate_ci95 : null,
      mean_score: m ? m.mean_score : null,
      gate: g ? { metric: g.metric, threshold: g.threshold, value: g.value, passed: g.passed, detail: g.detail } : null,
      note: r.report ? answeredNothing(r.report) : 'no evaluation_report.json',
    };
    prev.set(id, r.version);
    if (who) prevAgent.set(id, who);
    return row;
  });
}

/** The benchmark's identity as run.json records it; null for a run from before it did. */
export const identityOf = (r: RunEntry): string | null => r.runJson?.benchmark?.id ?? null;

/** The run's agent as its report (else run.json) records it. */
function agentOf(r: RunEntry) {
  const a = r.report?.agent ?? r.runJson?.agent;
  return a && typeof a.id === 'string'
    ? { id: a.id, name: String(a.name ?? a.id), module: a.module, sha256: a.sha256 }
    : null;
}

export interface BaselineChoice {
  dir: string;
  report: EvaluationReport;
}

/**
 * `--baseline RUN_DIR|auto`. A given folder must hold a report in which the agent answered
 * something (else a usage error). `auto` takes the latest run under `runsDir` (the folder of this
 * agent on this benchmark) that graded something, saying which runs it skipped; null when none.
 * Call it before the new run folder exists: every run found is then an earlier one.
 */
export async function resolveBaseline(
  ref: string,
  opts: { cwd: string; runsDir: string; say: (line: string) => void; exclude?: string; identity?: string },
): Promise<BaselineChoice | null> {
  if (ref !== 'auto') {
    const dir = resolve(opts.cwd, ref);
    return { dir, report: await loadBaselineReport(dir) };
  }
  const runs = (await listRuns(opts.runsDir)).filter((r) => !opts.exclude || resolve(r.dir) !== resolve(opts.exclude));
  for (const run of runs.reverse()) {
    const id = identityOf(run);
    // A run of another folder with the same name is another benchmark; an older run (no id) matches by name.
    if (opts.identity && id !== null && id !== opts.identity) {
      opts.say(`baseline: skipped ${run.dir}: another benchmark of this name (${id})`);
      continue;
    }
    if (!run.report) {
      opts.say(`baseline: skipped ${run.dir}: no evaluation_report.json`);
      continue;
    }
    const why = answeredNothing(run.report);
    if (why) {
      opts.say(`baseline: skipped ${run.dir}: ${why}`);
      continue;
    }
    opts.say(`baseline: ${run.dir}`);
    return { dir: run.dir, report: run.report };
  }
  opts.say(`baseline: no earlier run under ${opts.runsDir} graded anything: no comparison`);
  return null;
}
