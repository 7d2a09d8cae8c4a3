// Grading throughput: the deterministic checks (`contains`, `regex`, `json_field`, `numeric` and
// the trajectory metrics) run by gradeTrial over saved-looking results, in this process.
import { gradeTrial } from '../../src/checks/grade.ts';
import { getCheck } from '../../src/checks/index.ts';
import type { CheckConfig } from '../../src/config/schema.ts';
import type { Sample, TrajectoryEvent } from '../../src/types.ts';

const WANTED: CheckConfig[] = [
  { type: 'contains', name: 'says total', value: 'total' },
  { type: 'regex', name: 'has an order id', pattern: 'ORD-\\d{4}' },
  { type: 'json_field', name: 'intent', field: 'intent' },
  { type: 'numeric', name: 'the number' },
  { type: 'tool_selection', name: 'tools' },
  { type: 'argument_correctness', name: 'arguments' },
  { type: 'step_efficiency', name: 'efficiency' },
] as CheckConfig[];

/** The checks this build has (json_field and the trajectory metrics arrived in parallel work). */
export function gradingChecks(): CheckConfig[] {
  return WANTED.filter((c) => getCheck(c.type) !== undefined);
}

interface Graded {
  sample: Sample;
  replies: string[];
  events: TrajectoryEvent[];
}

/** `n` varied results: about half pass each check, so both verdict paths are exercised. */
function results(n: number): Graded[] {
  const out: Graded[] = [];
  for (let i = 0; i < n; i++) {
    const ok = i % 2 === 0;
    const calls = [
      { tool: 'lookup', args: { order: `ORD-${1000 + i}` } },
      { tool: 'refund', args: { amount: i } },
    ];
    const events: TrajectoryEvent[] = [];
    let step = 0;
    for (const c of ok ? calls : calls.slice(0, 1)) {
      events.push({ type: 'tool_call', tool: c.tool, args: c.args, step: ++step, ts: step / 10 });
      events.push({ type: 'tool_result', tool: c.tool, output: 'ok', exit_code: 0, step: ++step, ts: step / 10 });
    }
    const reply = `Looked up ORD-${ok ? 1000 + i : 'x'}. ${ok ? 'The total' : 'Sum'} is below.\n\`\`\`json\n{"intent": "${ok ? 'refund' : 'other'}", "n": ${i}}\n\`\`\`\nAnswer: ${ok ? i : i + 1}`;
    out.push({
      sample: {
        id: `g${i}`,
        input: 'refund my order',
        metadata: {},
        expectations: {
          intent: 'refund',
          'the number': i,
          tools: calls.map((c) => c.tool),
          arguments: calls,
          efficiency: calls,
        },
      },
      replies: [reply],
      events,
    });
  }
  return out;
}

export interface GradingFigures {
  verdicts: number;
  results: number;
  checks: string[];
  seconds: number;
  /** CPU time of this process over the same span: on a busy machine, the steadier figure. */
  cpu_seconds: number;
  verdicts_per_s: number;
  verdicts_per_cpu_s: number;
  passed_share: number;
}

/** Grades `n` results once; the caller repeats and takes the median. */
export async function measureGrading(n: number): Promise<GradingFigures> {
  const checks = gradingChecks();
  const batch = results(n);
  let verdicts = 0;
  let passed = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (const r of batch) {
    const g = await gradeTrial({
      checks,
      sample: r.sample,
      replies: r.replies,
      events: r.events,
      finalState: {},
      blocked: false,
      artifacts: {},
      skipSandbox: true,
    });
    verdicts += g.verdicts.length;
    for (const v of g.verdicts) if (v.passed) passed++;
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  return {
    verdicts,
    results: n,
    checks: checks.map((c) => c.type),
    seconds,
    cpu_seconds: cpuSeconds,
    verdicts_per_s: verdicts / seconds,
    verdicts_per_cpu_s: verdicts / cpuSeconds,
    passed_share: passed / Math.max(1, verdicts),
  };
}
