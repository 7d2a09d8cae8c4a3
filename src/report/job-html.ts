// A job's report.html (docs/running.md#jobs): per benchmark the cells (sortable), the best one, the
// pairs compared, and the tasks × cells matrix whose failing cells link to their trial pages; its
// script (viewer/job.ts) sorts and shows the tasks that flip between two cells picked.
import { JOB_JS } from './html-assets.ts';
import { escapeHtml, scriptJson } from './html.ts';
import type { JobBenchmark, JobReport } from './job-report.ts';
import { pageEnd, pageStart } from './page.ts';

const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);
const num = (x: number | null, digits = 2) => (x === null ? 'n/a' : x.toFixed(digits));
const ci = (c: [number, number] | null) => (c ? `${pct(c[0])} – ${pct(c[1])}` : '');
const td = (text: string, v: number | null | string = '') =>
  `<td class="num" data-v="${escapeHtml(v ?? '')}">${escapeHtml(text)}</td>`;

function cellsTable(b: JobBenchmark): string {
  const rows = b.cells.map(
    (c) => `<tr data-cell="${escapeHtml(c.id)}"${c.id === b.best ? ' class="best"' : ''}>
<td><a href="${escapeHtml(c.run_dir)}/report.html">${escapeHtml(c.label)}</a>${c.id === b.best ? ' <b>best</b>' : ''}</td>
${td(pct(c.pass_rate), c.pass_rate)}<td>${escapeHtml(ci(c.pass_rate_ci95))}</td>${td(num(c.mean_score), c.mean_score)}
${td(c.cost_per_trial_usd === null ? 'n/a' : `$${c.cost_per_trial_usd.toFixed(4)}`, c.cost_per_trial_usd)}${td(num(c.tokens_per_trial, 0), c.tokens_per_trial)}
${td(c.duration_s === null ? 'n/a' : `${c.duration_s.toFixed(1)} s`, c.duration_s)}${td(passK(c.pass_at))}${td(passK(c.pass_hat))}
<td>${escapeHtml(c.status)}${c.gate_passed === null ? '' : c.gate_passed ? ' · gate passed' : ' · gate failed'}</td></tr>`,
  );
  const heads = [
    'cell',
    'pass rate',
    '95% interval',
    'mean score',
    'cost/trial',
    'tokens/trial',
    'time',
    'pass@k',
    'pass^k',
    'status',
  ];
  return `<table class="job-cells"><thead><tr>${heads.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>
${rows.join('\n')}
</tbody></table>`;
}

const passK = (m: Record<string, number>) =>
  Object.entries(m)
    .map(([k, v]) => `${k}: ${pct(v)}`)
    .join(' ');

function pairsTable(b: JobBenchmark, label: (id: string) => string): string {
  if (b.pairs.length === 0) return '<p class="note">no two cells differ on the tasks they share</p>';
  const pts = (x: number) => `${(x * 100).toFixed(1)} pts`;
  const rows = b.pairs.flatMap((p) => {
    const name = `${escapeHtml(label(p.b))} − ${escapeHtml(label(p.a))}`;
    const pass = testRow(name, 'pass rate', p, pts, `${p.only_a} / ${p.only_b}`, 'McNemar', label, 'is better');
    const s = p.score;
    if (!s) return [pass];
    const score = testRow(
      name,
      'mean score',
      s,
      (x) => x.toFixed(3),
      `${s.higher_a} / ${s.higher_b}`,
      'sign',
      label,
      'scores higher',
    );
    return [pass, score];
  });
  return `<table class="job-pairs"><thead><tr><th>pair</th><th>measure</th><th>difference</th><th>95% interval</th><th>tasks</th><th>first / second ahead</th><th>test</th><th>p</th><th>Holm p</th><th>verdict</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>`;
}

interface TestCells {
  n: number;
  diff: number | null;
  ci95: [number, number] | null;
  p_value: number;
  p_adjusted: number;
  significant: boolean;
  better: string | null;
}

function testRow(
  name: string,
  measure: string,
  t: TestCells,
  fmt: (x: number) => string,
  ahead: string,
  test: string,
  label: (id: string) => string,
  better: string,
): string {
  return `<tr class="${t.significant ? 'significant' : ''}" data-measure="${measure}"><td>${name}</td><td>${measure}</td>
${td(t.diff === null ? 'n/a' : fmt(t.diff), t.diff)}<td>${escapeHtml(t.ci95 ? `${fmt(t.ci95[0])} – ${fmt(t.ci95[1])}` : '')}</td>
${td(String(t.n), t.n)}${td(ahead)}<td>${test}</td>${td(t.p_value.toPrecision(3), t.p_value)}${td(t.p_adjusted.toPrecision(3), t.p_adjusted)}
<td>${t.significant ? `significant: ${escapeHtml(label(t.better ?? ''))} ${better}` : 'not significant'}</td></tr>`;
}

function matrixTable(b: JobBenchmark): string {
  const head = b.cells.map((c) => `<th>${escapeHtml(c.label)}</th>`).join('');
  const rows = b.matrix.map((r) => {
    const cells = r.states.map((s, i) => {
      const link = r.links[i];
      const text = s ?? '–';
      const body =
        s && s !== 'passing' && link ? `<a href="${escapeHtml(link)}">${escapeHtml(text)}</a>` : escapeHtml(text);
      return `<td class="state-${escapeHtml(s ?? 'none')}">${body}</td>`;
    });
    return `<tr><td>${escapeHtml(r.sample_id)}</td>${cells.join('')}</tr>`;
  });
  return `<table class="job-matrix"><thead><tr><th>task</th>${head}</tr></thead><tbody>
${rows.join('\n')}
</tbody></table>`;
}

export function jobHtml(r: JobReport): string {
  const sections = r.benchmarks.map((b, i) => {
    const label = (id: string) => b.cells.find((c) => c.id === id)?.label ?? id;
    return `<section class="job-benchmark" data-benchmark="${escapeHtml(b.name)}">
<h2>${escapeHtml(b.name)}</h2>
<p id="best-${i}">best: <b>${escapeHtml(b.best ? label(b.best) : 'none graded')}</b></p>
${cellsTable(b)}
<h3>pairs (paired on the same tasks; significant at ${r.alpha} after Holm's correction)</h3>
${pairsTable(b, label)}
<h3>tasks that flip</h3>
<div id="flips-${i}"></div>
<h3>tasks × cells</h3>
${matrixTable(b)}
</section>`;
  });
  const data = {
    benchmarks: r.benchmarks.map((b) => ({
      name: b.name,
      cells: b.cells.map((c) => ({ id: c.id, label: c.label })),
      matrix: b.matrix,
    })),
  };
  return `${pageStart(`benchrig job ${r.job_id}`, JOB_JS)}<h1>job ${escapeHtml(r.job_id)}</h1>
<p class="sub">status ${escapeHtml(r.status)} · ${escapeHtml(r.passing_rule)}</p>
${sections.join('\n')}
<script type="application/json" id="benchrig-data">${scriptJson(data)}</script>
${pageEnd(JOB_JS)}`;
}
