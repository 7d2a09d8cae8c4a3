// A job's summary on the console (docs/running.md#jobs): per benchmark its cells, the best one and
// every pair that differs: pass rate (McNemar) and, when scores are graded, mean score (sign test).
import type { JobReport } from './job-report.ts';

const pct = (x: number | null) => (x === null ? '  n/a' : `${(x * 100).toFixed(1)}%`);

export function jobConsoleLines(r: JobReport, jobDir: string): string[] {
  const out: string[] = [];
  for (const b of r.benchmarks) {
    const label = (id: string) => b.cells.find((c) => c.id === id)?.label ?? id;
    out.push(`${b.name}:`);
    const width = Math.max(...b.cells.map((c) => c.label.length));
    for (const c of b.cells) {
      const interval = c.pass_rate_ci95 ? ` [${pct(c.pass_rate_ci95[0])}, ${pct(c.pass_rate_ci95[1])}]` : '';
      const cost = c.cost_per_trial_usd === null ? '' : `  $${c.cost_per_trial_usd.toFixed(4)}/trial`;
      out.push(
        `  ${c.label.padEnd(width)}  ${pct(c.pass_rate)}${interval}${cost}  ${c.status}${c.id === b.best ? '  (best)' : ''}`,
      );
    }
    for (const p of b.pairs) {
      const d = p.diff === null ? 'n/a' : `${p.diff > 0 ? '+' : ''}${(p.diff * 100).toFixed(1)} pts`;
      const verdict = p.significant ? `significant: ${label(p.better ?? '')} is better` : 'not significant';
      out.push(
        `  ${label(p.b)} vs ${label(p.a)}: ${d} over ${p.n} task(s), McNemar p = ${p.p_adjusted.toPrecision(3)} (Holm) — ${verdict}`,
      );
      const s = p.score;
      if (!s) continue;
      const sd = s.diff === null ? 'n/a' : `${s.diff > 0 ? '+' : ''}${s.diff.toFixed(3)}`;
      const sv = s.significant ? `significant: ${label(s.better ?? '')} scores higher` : 'not significant';
      out.push(
        `  ${label(p.b)} vs ${label(p.a)}: mean score ${sd} over ${s.n} task(s), sign test p = ${s.p_adjusted.toPrecision(3)} (Holm) — ${sv}`,
      );
    }
  }
  out.push(`job report: ${jobDir}/report.html`);
  return out;
}
