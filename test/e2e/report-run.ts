// A finished run folder built from fixed trials (run.json, results/, evaluation_report.json), for the
// report tests: known numbers, a hostile reply, tool calls, a judge's per-criterion scores, a huge output.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildReport } from '../../src/report/aggregate.ts';
import type { EvaluationReport } from '../../src/report/types.ts';
import type { CheckVerdict, TrialResult, TrialStatus } from '../../src/types.ts';
import { tempDir } from '../support/cli.ts';

export const HOSTILE = `<script>alert(1)</script><img src=x onerror=alert(2)> & "quotes" \u2028 </script>`;
export const HUGE = `${'x'.repeat(300_000)}THE-END`;

const verdict = (
  name: string,
  type: string,
  passed: boolean | null,
  reason: string,
  details?: Record<string, unknown>,
): CheckVerdict => ({
  name,
  type,
  passed,
  reason,
  score: passed ? 1 : 0,
  ...(details ? { details } : {}),
});

export function trialResult(
  taskId: string,
  status: TrialStatus,
  over: Partial<TrialResult> = {},
  time = 1,
): TrialResult {
  return {
    schema_version: 1,
    task_id: taskId,
    sample_id: taskId.replace(/-t\d+$/, ''),
    trial: Number(/-t(\d+)$/.exec(taskId)?.[1] ?? 1),
    session_id: `sess-${taskId}`,
    prompt: `do ${taskId}`,
    response: `done ${taskId}`,
    replies: [`done ${taskId}`],
    blocked: false,
    status,
    stop_reason: status === 'TIMEOUT' ? 'timeout' : 'agent_done',
    score: status === 'PASSED' ? 1 : status === 'FAILED' ? 0 : null,
    checks: [],
    events: [],
    final_state: {},
    artifacts: {},
    metadata: {
      llm_calls: 2,
      user_llm_calls: 0,
      tokens: { input: 100, output: 10 },
      cost_usd: null,
      tools_used: {},
      execution_time_s: time,
      timings_s: { sandbox: 0.1, agent: time, grading: 0.1, cleanup: 0.1 },
      input_hash: `h-${taskId.replace(/-t\d+$/, '')}`,
    },
    error: null,
    trace_id: `trace-${taskId}`,
    started_at: '2025-01-01T00:00:00.000Z',
    finished_at: '2025-01-01T00:00:01.000Z',
    ...over,
  };
}

/** 7 trials of 5 samples: 3 PASSED, 2 FAILED (one hostile), 1 AGENT_ERROR, 1 SANDBOX_ERROR. */
export function fixedTrials(): TrialResult[] {
  const tests = (passed: boolean) =>
    verdict('tests pass', 'sandbox_test', passed, passed ? 'exit 0' : 'exit 1: 0 passed, 1 failed');
  const judge = (passed: boolean) =>
    verdict(
      'judge',
      'llm_judge',
      passed,
      passed ? 'scored 4.50 of 5, needs 4' : 'scored 2.00 of 5, needs 4; below the floor on polite',
      {
        scores: {
          correct: { score: passed ? 5 : 2, reasoning: 'checked the numbers' },
          polite: { score: passed ? 4 : 1, reasoning: 'fine' },
        },
        weighted_score: passed ? 4.5 : 2,
        pass_score: 4,
        broken_floors: passed ? [] : ['polite'],
      },
    );
  return [
    trialResult(
      'alpha-t1',
      'PASSED',
      {
        checks: [tests(true), judge(true)],
        events: [
          { step: 1, ts: 0, type: 'user_message', content: 'count the lines' },
          { step: 2, ts: 0.1, type: 'llm_call', model: 'm', latency_ms: 12, tokens: { input: 50, output: 5 } },
          { step: 3, ts: 0.2, type: 'tool_call', tool: 'bash', args: { command: 'wc -l notes.txt' } },
          { step: 4, ts: 0.3, type: 'tool_result', tool: 'bash', exit_code: 0, output: '3 notes.txt' },
          { step: 5, ts: 0.4, type: 'agent_message', content: 'there are 3 lines', done: true },
        ],
        artifacts: { 'sandbox_test:tests pass': { exit_code: 0, stdout: '1 passed, 0 failed', stderr: '' } },
        metadata: { ...trialResult('x', 'PASSED', {}, 2).metadata, tools_used: { bash: 1 }, input_hash: 'h-alpha' },
      },
      2,
    ),
    trialResult('alpha-t2', 'FAILED', { checks: [tests(false), judge(false)] }, 3),
    trialResult('beta-t1', 'PASSED', { checks: [tests(true), judge(true)] }, 1),
    trialResult('beta-t2', 'PASSED', { checks: [tests(true), judge(true)] }, 1.5),
    trialResult(
      'evil-t1',
      'FAILED',
      {
        prompt: HOSTILE,
        response: HOSTILE,
        replies: [HOSTILE],
        checks: [verdict('tests pass', 'sandbox_test', false, HOSTILE), judge(false)],
        events: [
          { step: 1, ts: 0, type: 'agent_message', content: HOSTILE },
          { step: 2, ts: 0.1, type: 'tool_call', tool: 'bash', args: { command: HOSTILE } },
          { step: 3, ts: 0.2, type: 'tool_result', tool: 'bash', exit_code: 0, output: HUGE },
        ],
        final_state: { [HOSTILE]: HOSTILE },
      },
      9,
    ),
    trialResult(
      'gamma-t1',
      'AGENT_ERROR',
      { error: { kind: 'agent', message: 'the agent threw: boom' }, stop_reason: 'error' },
      0.5,
    ),
    trialResult(
      'delta-t1',
      'SANDBOX_ERROR',
      { error: { kind: 'sandbox', message: 'docker said no' }, stop_reason: 'error' },
      0.2,
    ),
  ];
}

/** What `writeRun` may set besides the trials: trials per task, the agent's id, the benchmark version, the start. */
export interface RunShape {
  trials?: number;
  agentId?: string;
  version?: string;
  startedAt?: string;
}

/** Writes a complete run folder for `trials`; returns it and its report. */
export async function writeRun(
  trials: TrialResult[] = fixedTrials(),
  dir = tempDir('benchrig-report-'),
  shape: RunShape = {},
): Promise<{ dir: string; report: EvaluationReport }> {
  const k = shape.trials ?? 2;
  const agent = shape.agentId ?? 'fixture';
  const version = shape.version ?? 'v0';
  const startedAt = shape.startedAt ?? '2025-01-01T00:00:00.000Z';
  mkdirSync(join(dir, 'results'), { recursive: true });
  const run = {
    schema_version: 1,
    run_id: 'run-fixed',
    benchmark: { name: 'fixed-bench', version, n_samples: 5 },
    dataset: { source: 'data.jsonl' },
    agent: { id: agent, name: agent, options: {} },
    mode: 'single',
    workers: 1,
    trials: k,
    started_at: startedAt,
    finished_at: '2025-01-01T00:01:00.000Z',
    harness_version: '0.1.0',
    git_commit: null,
    status: 'complete',
  };
  writeFileSync(join(dir, 'run.json'), JSON.stringify(run, null, 2));
  for (const t of trials) writeFileSync(join(dir, 'results', `${t.task_id}.json`), JSON.stringify(t, null, 2));
  const report = await buildReport({
    benchmark: { name: 'fixed-bench', version, n_samples: 5 },
    agent: { id: agent, name: agent },
    run: {
      id: 'run-fixed',
      dir,
      mode: 'single',
      workers: 1,
      trials: k,
      status: 'complete',
      started_at: run.started_at,
      finished_at: run.finished_at,
    },
    gate: { metric: 'pass_rate', threshold: 0.8 },
    blocksAreSuccess: false,
    results: trials,
  });
  writeFileSync(join(dir, 'evaluation_report.json'), JSON.stringify(report, null, 2));
  return { dir, report };
}
