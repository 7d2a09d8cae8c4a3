// `benchrig report --format md`: a compact summary fit for a pull-request comment or
// `$GITHUB_STEP_SUMMARY`. GitHub renders HTML inside Markdown, so every value from the agent or the
// dataset is escaped for both: no tag, no table break, no stray formatting survives.
import { appendFile } from 'node:fs/promises';
import type { EvaluationReport } from './types.ts';
import { analyzeReport, comparisonView } from './analysis.ts';
import { gateText, missingText } from './gate.ts';
import { meanScoreLabel } from './metrics.ts';

const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);
const num = (x: number | null) => (x === null ? 'n/a' : String(Number(x.toFixed(3))));

/** One table-safe line of untrusted text: HTML and Markdown specials escaped, bounded in length. */
export function mdText(text: string, max = 160): string {
  /* eslint-disable no-control-regex -- ANSI escapes and control characters are what this strips */
  let s = String(text)
    .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '')
    .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  /* eslint-enable no-control-regex */
  if (s.length > max) s = `${s.slice(0, max - 1)}…`;
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*{}[\]()#+!|~])/g, '\\$1');
}

const TOP = 10;

export function formatMarkdown(report: EvaluationReport): string {
  const m = report.metrics;
  const out: string[] = [];
  const gate = report.gate;
  const icon = !gate ? '' : gate.passed ? '✅ ' : '❌ ';
  const label = report.run.label ? ` · ${mdText(report.run.label)}` : '';
  const model = report.agent.model ? ` · ${mdText(report.agent.model)}` : '';
  out.push(`### ${icon}benchrig: ${mdText(report.benchmark.name)} · ${mdText(report.agent.id)}${model}${label}`, '');
  if (report.run.note) out.push(`_${mdText(report.run.note.replace(/\s+/g, ' '))}_`, '');

  const ci = m.pass_rate_ci95 ? ` (95% CI ${pct(m.pass_rate_ci95[0])}–${pct(m.pass_rate_ci95[1])})` : '';
  const missing = missingText(m);
  out.push(
    `**Pass rate ${m.pass_rate === null ? 'n/a (nothing gradable)' : `${pct(m.pass_rate)}${ci}`}** · ${m.n_passed}/${m.n_gradable} gradable trials passed · mean score ${num(m.mean_score)}${missing ? ` · **missing: ${missing}**` : ''}`,
    '',
  );
  if (!gate) out.push('Gate: none');
  else {
    out.push(
      `Gate: **${gate.passed ? 'passed' : 'failed'}** — ${gateText({ ...gate, metric: mdText(gate.metric), detail: mdText(gate.detail) }, num, '≥')}`,
    );
  }
  out.push('');

  const statuses = Object.entries(m.status_counts).filter(([, n]) => n > 0);
  out.push(
    '| trials | ' + statuses.map(([s]) => s).join(' | ') + ' |',
    '|---:|' + statuses.map(() => '---:|').join(''),
  );
  out.push(`| ${m.n_trials} | ` + statuses.map(([, n]) => String(n)).join(' | ') + ' |', '');

  if (report.checks.length > 0) {
    out.push('| check | type | pass rate | passed | mean score |', '|---|---|---:|---:|---:|');
    for (const c of report.checks) {
      const passed = c.pass_rate === null ? 0 : Math.round(c.pass_rate * c.n_gradable);
      const mean =
        c.mean_score === undefined
          ? ''
          : `${num(c.mean_score)}${c.type === 'reciprocal_rank' ? ` (${meanScoreLabel(c.type)})` : ''}`;
      out.push(
        `| ${mdText(c.name, 60)} | ${mdText(c.type, 30)} | ${pct(c.pass_rate)} | ${passed}/${c.n_gradable} | ${mean} |`,
      );
    }
    out.push('');
  }

  if (report.top_failures.length > 0) {
    out.push('<details><summary>Top failures</summary>', '', '| task | status | reason |', '|---|---|---|');
    for (const f of report.top_failures.slice(0, TOP))
      out.push(`| ${mdText(f.task_id, 60)} | ${f.status} | ${mdText(f.reason)} |`);
    out.push('', '</details>', '');
  }

  const a = analyzeReport(report);
  const notes: string[] = [];
  if (a.flakyTasks.length > 0) notes.push(`flaky tasks: ${a.flakyTasks.length}`);
  if (a.errorKinds.length > 0)
    notes.push(`errors: ${a.errorKinds.map(([k, n]) => `${mdText(k, 40)} ${n}`).join(', ')}`);
  if (a.costUsd !== null) notes.push(`cost $${a.costUsd.toFixed(4)}`);
  if (a.unpricedModels.length) notes.push(`no price for model ${a.unpricedModels.join(', ')}`);
  notes.push(`tokens ${a.tokens.input} in / ${a.tokens.output} out`);
  out.push(notes.join(' · '), '');

  const cmp = comparisonView(report.comparison);
  if (cmp) {
    out.push(
      `**Compared with ${cmp.baseline ? `\`${cmp.baseline.replace(/`/g, "'")}\`` : 'the baseline'}**${cmp.message ? ` — ${mdText(cmp.message)}` : ''}`,
      '',
    );
    for (const l of cmp.lists) {
      if (l.key === 'persistent' || l.items.length === 0) continue;
      const shown = l.items
        .slice(0, TOP)
        .map((i) => mdText(i, 60))
        .join(', ');
      out.push(`- ${l.label} (${l.items.length}): ${shown}${l.items.length > TOP ? ', …' : ''}`);
    }
    out.push('');
  }
  out.push(
    `<sub>benchmark version ${mdText(report.benchmark.version, 40)} · run ${mdText(report.run.id, 80)}</sub>`,
    '',
  );
  return out.join('\n');
}

/** GitHub Actions shows `$GITHUB_STEP_SUMMARY` on the run page; several steps may append to it. */
export async function appendStepSummary(path: string, report: EvaluationReport): Promise<void> {
  await appendFile(path, `${formatMarkdown(report)}\n`);
}
