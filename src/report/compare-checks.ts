// Two things compare and history say about runs besides their tasks (docs/reports.md#comparing-runs):
// each check's pass rate per run and its change, and a warning when one agent id covers different
// agent modules (run.json records each module's hash), so that runs of two different agents are
// not read as runs of one.
import type { CheckStats, EvaluationReport } from './types.ts';

export interface CheckDelta {
  name: string;
  type: string;
  /** Pass rate over the check's gradable trials; null when absent from that run or nothing was gradable. */
  baseline: number | null;
  current: number | null;
  /** current − baseline; null when either is null. */
  delta: number | null;
}

/** Checks matched by name: the baseline's in order, then those only the current run has. */
export function checkDeltas(baseline: CheckStats[], current: CheckStats[]): CheckDelta[] {
  const names = [...new Set([...baseline, ...current].map((c) => c.name))];
  return names.map((name) => {
    const b = baseline.find((c) => c.name === name);
    const c = current.find((x) => x.name === name);
    const before = b?.pass_rate ?? null;
    const now = c?.pass_rate ?? null;
    return {
      name,
      type: (c ?? b)?.type ?? '',
      baseline: before,
      current: now,
      delta: before === null || now === null ? null : now - before,
    };
  });
}

/** Each check's pass rate in every run (null: absent, or nothing gradable), matched by name, first run's order first. */
export function checkRates(checks: CheckStats[][]): Array<{ name: string; type: string; rates: Array<number | null> }> {
  const names = [...new Set(checks.flat().map((c) => c.name))];
  return names.map((name) => {
    const found = checks.map((list) => list.find((c) => c.name === name));
    return {
      name,
      type: found.find((c) => c)?.type ?? '',
      rates: found.map((c) => c?.pass_rate ?? null),
    };
  });
}

type AgentSide = Pick<EvaluationReport['agent'], 'id' | 'name' | 'module' | 'sha256'>;

/** What an agent is, or null when its report predates module hashes (nothing to compare). */
export function agentIdentity(agent: AgentSide): string | null {
  if (agent.sha256 === undefined) return null;
  if (agent.sha256 === null) return `built-in ${agent.name}`;
  return `${agent.module ?? agent.name} (sha256 ${agent.sha256.slice(0, 12)})`;
}

/**
 * The warning when one agent id covers different agents across `reports` (a different module, a
 * changed module or helper it imports, or a built-in in one run): null when none does.
 */
export function agentModulesNote(reports: ReadonlyArray<{ agent: AgentSide }>): string | null {
  const byId = new Map<string, string[]>();
  for (const r of reports) {
    const who = agentIdentity(r.agent);
    if (who === null) continue;
    const seen = byId.get(r.agent.id) ?? [];
    if (!seen.includes(who)) seen.push(who);
    byId.set(r.agent.id, seen);
  }
  const notes = [...byId]
    .filter(([, seen]) => seen.length > 1)
    .map(([id, seen]) => `agent "${id}" is different code across these runs: ${seen.join(' → ')}`);
  return notes.length ? notes.join('; ') : null;
}
