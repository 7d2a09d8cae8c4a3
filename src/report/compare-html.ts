// `benchrig compare A B [C …] --format html`: one self-contained page with a summary row per run,
// the paired difference of each run's pass rate against the first, a tasks × runs matrix that
// filters to regressions / fixed / differing tasks, and the trial page of any cell clicked.
// Every run's trials are embedded (clipped like report.html's) a trial at a time, never whole.
import type { TrialResult } from '../types.ts';
import { COMPARE_JS, cspFor } from './html-assets.ts';
import { clipFor, escapeHtml, PAGE_SIZE, pageBudgetFor, pageTrial, scriptJson } from './html.ts';
import { buildMatrix, type Matrix } from './matrix.ts';
import { pageEnd, pageStart } from './page.ts';
import type { EvaluationReport } from './types.ts';
import { writeChunksAtomic } from './write.ts';

export const COMPARE_CSP = cspFor(COMPARE_JS);

interface CompareRunInput {
  report: EvaluationReport;
  /** The run's result files; read twice (task ids first, then the trials to embed). */
  results: () => Iterable<TrialResult> | AsyncIterable<TrialResult>;
}

const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);
const pts = (x: number) => (Math.abs(x) < 1e-12 ? '±0' : `${x > 0 ? '+' : ''}${(x * 100).toFixed(1)} pts`);

/** Each check's pass rate per run, and each later run's change from the baseline (the first run). */
function checksTable(m: Matrix): string {
  if (m.checks.length === 0) return '';
  const head = ['check', ...m.runs.map((r, i) => (i === 0 ? `${r.label} (baseline)` : r.label))];
  const rows = m.checks.map((c) => {
    const base = c.rates[0];
    const cells = c.rates.map((rate, i) => {
      const change = i > 0 && rate !== null && base !== null ? ` <span class="note">${pts(rate - base)}</span>` : '';
      return `<td class="num" data-run="${i}" data-rate="${rate ?? ''}">${pct(rate)}${change}</td>`;
    });
    return `<tr data-check="${escapeHtml(c.name)}"><td>${escapeHtml(c.name)} <span class="note">${escapeHtml(c.type)}</span></td>${cells.join('')}</tr>`;
  });
  return `<h2>checks</h2>
<table class="checks-table" id="check-deltas"><thead><tr>${head.map((h, i) => `<th${i ? ' class="num"' : ''}>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>
${rows.join('\n')}
</tbody></table>`;
}

/** The runs in the header: each by its name (run-names.ts), folder and note. */
const runsLine = (m: Matrix) =>
  m.runs
    .map(
      (r, i) =>
        `${i === 0 ? 'baseline ' : ''}<b>${escapeHtml(r.label)}</b> (${escapeHtml(r.dir)})${r.note ? ` <span class="note run-note">${escapeHtml(r.note)}</span>` : ''}`,
    )
    .join(' · ');

function body(m: Matrix): string {
  const benchmarks = [...new Set(m.runs.map((r) => r.benchmark))].join(', ');
  return `<header>
<h1>comparing ${m.runs.length} runs <span class="note">${escapeHtml(benchmarks)}</span></h1>
<p class="sub">${runsLine(m)}</p>
</header>
<main>
<section id="summary">
<div id="warnings">${m.warnings.map((w) => `<div class="gate fail">warning: ${escapeHtml(w)}</div>`).join('')}</div>
<h2>runs</h2>
<div id="runs-summary"></div>
<div id="charts" class="charts"></div>
${checksTable(m)}
</section>
<section id="matrix-section">
<h2>tasks \u00d7 runs</h2>
<noscript><p>The matrix needs JavaScript.</p></noscript>
<div class="controls" id="matrix-filters">
<button data-filter="all" class="on">all tasks</button><button data-filter="differing">differing</button><button data-filter="regressions">regressions</button><button data-filter="fixed">fixed</button>
<input id="m-search" type="search" placeholder="search task" aria-label="search task">
</div>
<div class="legend" id="legend"></div>
<div id="matrix"></div>
</section>
<section id="detail" hidden></section>
</main>
`;
}

async function* compareParts(runs: CompareRunInput[]): AsyncGenerator<string> {
  const inputs = [];
  let total = 0;
  for (const run of runs) {
    const trials: Array<{ task_id: string; sample_id: string }> = [];
    for await (const r of run.results()) trials.push({ task_id: r.task_id, sample_id: r.sample_id });
    total += trials.length;
    inputs.push({ report: run.report, trials });
  }
  const matrix = buildMatrix(inputs);
  const clip = clipFor(total);
  yield pageStart(`compare ${matrix.runs.map((r) => r.label).join(' · ')} · benchrig`, COMPARE_JS);
  yield body(matrix);
  yield `<script type="application/json" id="benchrig-data">{"matrix":${scriptJson(matrix)},"page_size":${PAGE_SIZE},"trials":[`;
  for (let i = 0; i < runs.length; i++) {
    yield `${i ? ',' : ''}[`;
    let first = true;
    // runs of a million trials: each run's share of one page's budget (report.html's, html.ts)
    const budget = pageBudgetFor(total, 1 / runs.length);
    for await (const r of runs[i].results()) {
      if (!budget.wants(r)) continue;
      const entry = scriptJson(pageTrial(r, clip));
      if (!budget.admit(r, entry)) continue;
      yield (first ? '' : ',') + entry;
      first = false;
    }
    yield ']';
  }
  yield ']}</script>\n';
  yield pageEnd(COMPARE_JS);
}

export async function renderCompareHtml(runs: CompareRunInput[]): Promise<string> {
  const parts: string[] = [];
  for await (const p of compareParts(runs)) parts.push(p);
  return parts.join('');
}

export async function writeCompareHtml(out: string, runs: CompareRunInput[]): Promise<void> {
  await writeChunksAtomic(out, compareParts(runs));
}
