// report.html (docs/reports.md#files): one self-contained page per run. The summary is static HTML (every value
// escaped); the trials travel as JSON in a <script type="application/json"> block that no value can
// break out of, and the inline script renders the tables page by page and a trial on click.
// A strict CSP allows only this page's own style and script (by hash): no network, no injected code.
import { join } from 'node:path';
import type { TrialResult } from '../types.ts';
import { failureReason, readResults } from './aggregate.ts';
import { analyzeReport, comparisonView, slowestTrials, type SlowTrial } from './analysis.ts';
import { gateText as gateComparison, missingOf } from './gate.ts';
import { cspFor, REPORT_CSS, REPORT_JS } from './html-assets.ts';
import { meanScoreLabel } from './metrics.ts';
import type { EvaluationReport } from './types.ts';
import { PageBudget, type TrialPageSpool } from './html-spool.ts';
import { pageTranscript } from './html-transcript.ts';
import { CLIP_SAME_FROM, clipFor, clipString, clipValue, type Clip, type CutCounter } from './clip.ts';
import { writeChunksAtomic } from './write.ts';

export const PAGE_SIZE = 200;
/** A run of more trials (or tasks) than this has a page that embeds a selection of them (html-spool.ts PageBudget). */
export const PAGE_FULL_TRIALS = 10_000;
/** Bytes of trial data such a page embeds: every trial in order up to `all`, those that did not pass up to `all + more`. */
const TRIAL_BYTES = { all: 12_000_000, more: 4_000_000 };
/** Bytes of task entries such a page embeds. */
const TASK_BYTES = 3_000_000;

/**
 * The budget of a page of `nTrials` trials: none (every trial) up to PAGE_FULL_TRIALS; `share` of
 * it for one of several runs on one page (the comparison page).
 */
export const pageBudgetFor = (nTrials: number, share = 1): PageBudget =>
  new PageBudget(nTrials > PAGE_FULL_TRIALS ? { all: TRIAL_BYTES.all * share, more: TRIAL_BYTES.more * share } : null);

/**
 * A count of trials past which report.html's trial data is made the same for any larger one: the
 * page's budget (pageBudgetFor) and each trial's clip (clipFor) no longer depend on the number. A
 * reader counts the result files up to it, not further (result-layout.ts `listResults`).
 */
export const PAGE_TRIALS_COUNTED = Math.max(PAGE_FULL_TRIALS + 1, CLIP_SAME_FROM);

export { clipFor } from './clip.ts';

/** Escapes text for HTML content and quoted attributes. */
export function escapeHtml(text: unknown): string {
  return String(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** JSON that cannot end its <script> element or confuse an HTML parser. */
const SCRIPT_UNSAFE = /[<>&\u2028\u2029]/g;
const SCRIPT_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

export function scriptJson(value: unknown): string {
  // One pass, and none for the usual trial without any of these characters (five passes were ~5 µs a trial).
  return JSON.stringify(value).replace(SCRIPT_UNSAFE, (c) => SCRIPT_ESCAPES[c]);
}

function clipEvents(events: TrialResult['events'], clip: Clip, cut: CutCounter): unknown[] {
  const list = events ?? [];
  if (list.length <= clip.maxEvents) return list.map((e) => clipValue(e, clip, cut));
  const head = Math.ceil(clip.maxEvents * 0.75);
  const tail = clip.maxEvents - head;
  const dropped = list.length - head - tail;
  cut.events += dropped;
  const marker = {
    type: 'cut',
    step: list[head].step,
    ts: list[head].ts,
    message: `… ${dropped} events cut (see results file) …`,
  };
  return [...list.slice(0, head), marker, ...list.slice(list.length - tail)].map((e) => clipValue(e, clip, cut));
}

function successReason(r: TrialResult): string {
  const passing = r.checks?.find((c) => c.passed === true);
  return passing ? `${passing.name}: ${passing.reason}` : r.blocked ? 'blocked' : 'passed';
}

/** Keys of a result file the trial page shows in their own place; any other key shows as "other fields". */
const KNOWN_KEYS = new Set([
  'schema_version',
  'task_id',
  'sample_id',
  'trial',
  'session_id',
  'prompt',
  'response',
  'replies',
  'blocked',
  'status',
  'stop_reason',
  'score',
  'checks',
  'events',
  'final_state',
  'artifacts',
  'metadata',
  'error',
  'trace_id',
  'started_at',
  'finished_at',
  'transcript',
]);

const firstOf = (events: TrialResult['events'], type: string) =>
  events?.find((e) => e.type === type) as { content?: string } | undefined;
function lastOf(events: TrialResult['events'], type: string): { content?: string } | undefined {
  for (let i = (events?.length ?? 0) - 1; i >= 0; i--)
    if (events[i].type === type) return events[i] as { content?: string };
  return undefined;
}

/**
 * What the page keeps of one trial: everything a reader drills into, with huge values clipped.
 * The prompt and the response are left out when the trajectory already holds them word for word
 * (the first user message, the last agent message): the page stays near the size of the events.
 */
export function pageTrial(r: TrialResult, clip: Clip): Record<string, unknown> {
  const cut: CutCounter = { chars: 0, events: 0 };
  const reason = r.status === 'PASSED' ? successReason(r) : failureReason(r);
  const { input_hash: _hash, ...metadata } = r.metadata ?? ({} as TrialResult['metadata']);
  const extra = Object.fromEntries(Object.entries(r).filter(([k]) => !KNOWN_KEYS.has(k)));
  const prompt = r.prompt ?? '';
  const response = r.response ?? '';
  const trial = {
    task_id: r.task_id,
    sample_id: r.sample_id,
    trial: r.trial,
    status: r.status,
    score: r.score,
    stop_reason: r.stop_reason,
    execution_time_s: r.metadata?.execution_time_s ?? null,
    reason: clipString(reason.replace(/\s+/g, ' '), 300, { chars: 0, events: 0 }),
    checks: clipValue(r.checks ?? [], clip, cut),
    prompt: firstOf(r.events, 'user_message')?.content === prompt ? undefined : clipString(prompt, clip.maxString, cut),
    response:
      lastOf(r.events, 'agent_message')?.content === response ? undefined : clipString(response, clip.maxString, cut),
    events: clipEvents(r.events, clip, cut),
    transcript: pageTranscript(r, clip, cut),
    artifacts: clipValue(r.artifacts ?? {}, clip, cut),
    final_state: clipValue(r.final_state ?? {}, clip, cut),
    metadata: clipValue(metadata, clip, cut),
    extra: Object.keys(extra).length ? clipValue(extra, clip, cut) : undefined,
    error: clipValue(r.error ?? null, clip, cut),
    trace_id: r.trace_id ?? null,
    session_id: r.session_id,
    started_at: r.started_at,
    finished_at: r.finished_at,
    cut: null as string | null,
  };
  if (cut.chars || cut.events) {
    const parts = [cut.chars ? `${cut.chars} characters` : '', cut.events ? `${cut.events} events` : ''].filter(
      Boolean,
    );
    trial.cut = `This page shortened the trial by ${parts.join(' and ')}; the result file has everything.`;
  }
  return trial;
}

// ------------------------------------------------------------------------------ the static summary

const pct = (x: number | null | undefined) => (x === null || x === undefined ? 'n/a' : `${(x * 100).toFixed(1)}%`);
const num = (x: number | null | undefined, d = 3) =>
  x === null || x === undefined ? 'n/a' : String(Number(x.toFixed(d)));
const secs = (x: number | null) => (x === null ? 'n/a' : `${x.toFixed(x < 10 ? 2 : 1)}s`);

const card = (id: string, k: string, v: string, n = '') =>
  `<div class="card" id="${id}"><div class="k">${escapeHtml(k)}</div><div class="v">${escapeHtml(v)}</div><div class="n">${escapeHtml(n)}</div></div>`;

function table(head: string[], rows: string[][], cls = ''): string {
  const th = head.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const trs = rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('\n');
  return `<table class="${cls}"><thead><tr>${th}</tr></thead><tbody>\n${trs}\n</tbody></table>`;
}

const badge = (status: string) =>
  `<span class="badge s-${escapeHtml(status.replace(/[^A-Z_]/g, ''))}">${escapeHtml(status)}</span>`;

/** The gate line: verdict and comparison; an incomplete run's detail says how many trials lack a verdict. */
export function gateText(g: EvaluationReport['gate']): string {
  if (!g) return 'gate: none';
  return `gate ${g.passed ? 'PASSED' : 'FAILED'}: ${gateComparison(g, num, '≥')}`;
}

const gateHtml = (g: EvaluationReport['gate']) =>
  `<div class="gate ${!g ? 'none' : g.passed ? 'pass' : 'fail'}" id="gate">${escapeHtml(gateText(g))}</div>`;

// eslint-disable-next-line max-lines-per-function -- one HTML template for the report's summary, read top to bottom like the page it makes
function summaryHtml(report: EvaluationReport, slowest: SlowTrial[] | null): string {
  const m = report.metrics;
  const k = report.run.trials;
  const ci = m.pass_rate_ci95 ? `95% CI ${pct(m.pass_rate_ci95[0])}–${pct(m.pass_rate_ci95[1])}` : 'nothing gradable';
  const out: string[] = [];
  out.push('<div class="cards">');
  out.push(card('m-pass-rate', 'pass rate', pct(m.pass_rate), ci));
  out.push(card('m-passed', 'passed', `${m.n_passed}/${m.n_gradable}`, 'gradable trials'));
  const { missing } = missingOf(m);
  if (missing > 0)
    out.push(
      card(
        'm-missing',
        'missing',
        pct(m.missing_rate ?? missing / m.n_trials),
        `${missing} of ${m.n_trials} trials without a verdict`,
      ),
    );
  out.push(card('m-mean-score', 'mean score', num(m.mean_score)));
  if (k > 1)
    out.push(
      card('m-pass-at-k', `pass@${k}`, pct(m.pass_at_k), 'tasks with any pass'),
      card('m-pass-all-k', `pass^${k}`, pct(m.pass_all_k), 'tasks passing every trial'),
    );
  out.push(card('m-trials', 'trials', String(m.n_trials), `${m.n_tasks} task(s)`));
  out.push(
    card(
      'm-time',
      'time p50 / p95',
      `${secs(m.execution_time_s.p50)} / ${secs(m.execution_time_s.p95)}`,
      `max ${secs(m.execution_time_s.max)}`,
    ),
  );
  out.push(
    card('m-tokens', 'tokens in / out', `${m.tokens.input} / ${m.tokens.output}`, `${m.llm_calls.total} LLM call(s)`),
  );
  const unpriced = m.unpriced_models?.length ? `no price for ${m.unpriced_models.join(', ')}` : '';
  out.push(card('m-cost', 'cost', m.cost_usd === null ? 'n/a' : `$${m.cost_usd.toFixed(4)}`, unpriced));
  out.push('</div>');

  const statuses = Object.entries(m.status_counts).filter(([, n]) => n > 0);
  out.push(
    `<p id="status-counts">${statuses.map(([s, n]) => `${badge(s)} <span data-status="${escapeHtml(s)}">${n}</span>`).join(' &nbsp; ') || 'no trials'}</p>`,
  );

  out.push(gateHtml(report.gate));
  out.push('<div id="charts" class="charts"></div>');

  if (report.checks.length > 0) {
    out.push('<h2>checks</h2>');
    out.push(
      table(
        ['check', 'type', 'pass rate', 'passed', 'mean score'],
        report.checks.map((c) => {
          const passed = c.pass_rate === null ? 0 : Math.round(c.pass_rate * c.n_gradable);
          const mean =
            c.mean_score === undefined
              ? ''
              : `${num(c.mean_score)}${c.type === 'reciprocal_rank' ? ` (${meanScoreLabel(c.type)})` : ''}`;
          return [escapeHtml(c.name), escapeHtml(c.type), pct(c.pass_rate), `${passed}/${c.n_gradable}`, mean];
        }),
        'checks-table',
      ),
    );
  }
  const top = (title: string, id: string, list: EvaluationReport['top_failures']) =>
    list.length === 0
      ? ''
      : `<h2>${title}</h2>${table(
          ['task', 'status', 'reason'],
          list.map((e) => [
            `<a href="#trial=${escapeHtml(encodeURIComponent(e.task_id))}" class="trial-link">${escapeHtml(e.task_id)}</a>`,
            badge(e.status),
            `<span class="reason">${escapeHtml(e.reason)}</span>`,
          ]),
          id,
        )}`;
  out.push(
    top('top failures', 'top-failures', report.top_failures),
    top('top successes', 'top-successes', report.top_successes.slice(0, 5)),
  );

  const a = analyzeReport(report, slowest);
  const items: string[] = [];
  if (a.failingChecks.length)
    items.push(
      `checks failing most: ${a.failingChecks
        .slice(0, 5)
        .map((c) => `${escapeHtml(c.name)} (${c.failed}/${c.n_gradable} failed)`)
        .join(', ')}`,
    );
  if (a.flakyTasks.length)
    items.push(
      `flaky tasks (${a.flakyTasks.length}): ${a.flakyTasks.slice(0, 20).map(escapeHtml).join(', ')}${a.flakyTasks.length > 20 ? ', …' : ''}`,
    );
  if (a.errorKinds.length)
    items.push(`error kinds: ${a.errorKinds.map(([kind, n]) => `${escapeHtml(kind)} ${n}`).join(', ')}`);
  if (a.stopReasons.length)
    items.push(`stop reasons: ${a.stopReasons.map(([r, n]) => `${escapeHtml(r)} ${n}`).join(', ')}`);
  if (a.slowest?.length)
    items.push(
      `slowest trials: ${a.slowest.map((t) => `${escapeHtml(t.task_id)} ${secs(t.execution_time_s)} (${escapeHtml(t.status)})`).join(', ')}`,
    );
  out.push(
    `<h2>analysis</h2><ul id="analysis">${items.map((i) => `<li>${i}</li>`).join('')}<li>execution time: mean ${secs(a.time.mean)}, p50 ${secs(a.time.p50)}, p95 ${secs(a.time.p95)}, max ${secs(a.time.max)}</li></ul>`,
  );

  const cmp = comparisonView(report.comparison);
  if (cmp) {
    out.push(`<h2>compared with ${escapeHtml(cmp.baseline ?? 'the baseline')}</h2>`);
    if (cmp.message) out.push(`<p class="cut">${escapeHtml(cmp.message)}</p>`);
    out.push(
      `<ul id="comparison">${cmp.lists.map((l) => `<li data-list="${l.key}">${escapeHtml(l.label)} (${l.items.length})${l.items.length ? `: ${l.items.slice(0, 50).map(escapeHtml).join(', ')}${l.items.length > 50 ? ', …' : ''}` : ''}</li>`).join('')}</ul>`,
    );
  }
  return out.join('\n');
}

/**
 * The page's Content-Security-Policy: nothing but its own inline style and script, and requests to
 * the server it came from (`benchrig view`), where a large run's page asks for a trial it does not hold.
 */
export const REPORT_CSP = `${cspFor(REPORT_JS)}; connect-src 'self'`;

/**
 * The page in pieces, in order: head and summary, the embedded data a trial at a time (each trial's
 * JSON escaped on its own: scriptJson's escapes are per character, so the pieces join into the same
 * text as escaping the whole), then the tail. A 10,000-trial page is never held whole. `trials`
 * yields the comma-separated entries: from the results (trialEntries) or from a spool of them.
 */
async function* htmlReportParts(
  report: EvaluationReport,
  trials: AsyncIterable<string | Uint8Array>,
  slowest: SlowTrial[] | null,
  budget: PageBudget,
): AsyncGenerator<string | Uint8Array> {
  yield pageHead(report, slowest);
  // scriptJson({ checks, tasks, metrics, trials }), a task at a time: one entry per sample
  yield `<script type="application/json" id="benchrig-data">{"report":{"checks":${scriptJson(report.checks)},"tasks":[`;
  const taskBytes = report.tasks.length > PAGE_FULL_TRIALS ? TASK_BYTES : Infinity;
  let bytes = 0;
  let tasksShown = 0;
  for (; tasksShown < report.tasks.length; tasksShown++) {
    const entry = (tasksShown ? ',' : '') + scriptJson(pageTask(report.tasks[tasksShown]));
    if ((bytes += entry.length) > taskBytes) break;
    yield entry;
  }
  yield `],"metrics":${scriptJson(report.metrics)},"trials":${scriptJson(report.run.trials)}},"trials":[`;
  yield* trials;
  // A large run's page holds a selection (pageBudgetFor): the page says how much, and where the rest is.
  const partial =
    budget.left > 0 || tasksShown < report.tasks.length
      ? `,"partial":${scriptJson({ trials: budget.shown + budget.left, trials_shown: budget.shown, tasks: report.tasks.length, tasks_shown: tasksShown })}`
      : '';
  yield `]${partial},"page_size":${PAGE_SIZE}}</script>
<script>${REPORT_JS}</script>
</body>
</html>
`;
}

/** One trial's entry in the page's data: its pageTrial, escaped, for a run of `nTrials` trials. */
export const trialEntry = (nTrials: number) => {
  const clip = clipFor(nTrials);
  return (r: TrialResult): string => scriptJson(pageTrial(r, clip));
};

async function* trialEntries(
  results: Iterable<TrialResult> | AsyncIterable<TrialResult>,
  nTrials: number,
  budget: PageBudget,
): AsyncGenerator<string> {
  const entry = trialEntry(nTrials);
  let first = true;
  for await (const r of results) {
    if (!budget.wants(r)) continue;
    const e = entry(r);
    if (!budget.admit(r, e)) continue;
    yield (first ? '' : ',') + e;
    first = false;
  }
}

/** Doctype, CSP, the shared style: the start of every page benchrig writes (report.html, compare, history, run list). */
export function documentStart(title: string, csp: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
`;
}

/** The run's `--label` and `--note`, when it has them (docs/reports.md#reporthtml). */
function runLabelHtml(report: EvaluationReport): string {
  const { label, note } = report.run;
  if (!label && !note) return '';
  const l = label ? `<b id="run-label">${escapeHtml(label)}</b>` : '';
  const n = note ? `<span class="note" id="run-note">${escapeHtml(note)}</span>` : '';
  return `<p class="sub">${l}${l && n ? ' · ' : ''}${n}</p>\n`;
}

const agentModuleHtml = (report: EvaluationReport) =>
  report.agent.sha256
    ? `<p class="sub" id="agent-module">agent sha256 ${escapeHtml(report.agent.sha256.slice(0, 12))} (the module and its local imports)</p>\n`
    : '';

function pageHead(report: EvaluationReport, slowest: SlowTrial[] | null): string {
  const title = `${report.benchmark.name} · ${report.agent.id} · benchrig`;
  return `${documentStart(title, REPORT_CSP)}<header>
<h1>${escapeHtml(report.benchmark.name)} <span class="note">version ${escapeHtml(report.benchmark.version)}</span></h1>
${runLabelHtml(report)}<p class="sub">agent <b>${escapeHtml(report.agent.id)}</b> (${escapeHtml(report.agent.name)})${report.agent.model ? ` · model <b>${escapeHtml(report.agent.model)}</b>` : ''} · run ${escapeHtml(report.run.id)} · ${escapeHtml(report.run.status)} · ${escapeHtml(report.run.mode)} × ${report.run.workers} · started ${escapeHtml(report.run.started_at)} · ${report.run.duration_s === null ? '' : `${report.run.duration_s.toFixed(1)}s`}</p>
${agentModuleHtml(report)}</header>
<main>
<section id="summary">
${summaryHtml(report, slowest)}
</section>
<section id="trials-section">
<h2>trials</h2>
<noscript><p>The trial table needs JavaScript; every trial is also in results/&lt;task-id&gt;.json.</p></noscript>
<div class="controls">
<label for="f-status">status</label><select id="f-status"></select>
<label for="f-check">check</label><select id="f-check"></select>
<select id="f-verdict" aria-label="verdict"><option value="failed">failed</option><option value="passed">passed</option><option value="ungradable">ungradable</option><option value="any">any verdict</option></select>
<input id="f-search" type="search" placeholder="search task, sample, reason" aria-label="search">
<span id="f-sample" hidden>sample <b id="f-sample-name"></b> <button id="f-sample-clear">show all</button></span>
</div>
<div id="partial" class="cut" hidden><p id="partial-text"></p><form id="partial-open" hidden><label for="partial-id">task id</label> <input id="partial-id" type="search" placeholder="e.g. s00042-t3"> <button>open</button> <span id="partial-missing"></span></form></div>
<div id="trials"></div>
</section>
<section id="detail" hidden></section>
<section id="tasks-section">
<h2>tasks</h2>
<div class="controls"><label><input type="checkbox" id="f-flaky"> flaky only</label></div>
<div id="tasks"></div>
</section>
</main>
`;
}

/**
 * The whole page for a report and its trials (read once, in order), as one string. A report that
 * names its slowest trials (every one buildReport makes) is rendered in one pass, no trial held.
 */
export async function renderHtmlReport(
  report: EvaluationReport,
  results: Iterable<TrialResult> | AsyncIterable<TrialResult>,
): Promise<string> {
  let slowest = report.slowest_trials ?? null;
  let trials = results;
  if (!slowest) {
    const list: TrialResult[] = [];
    for await (const r of results) list.push(r);
    slowest = await slowestTrials(list);
    trials = list;
  }
  const budget = pageBudgetFor(report.metrics.n_trials);
  const parts: string[] = [];
  for await (const part of htmlReportParts(
    report,
    trialEntries(trials, report.metrics.n_trials, budget),
    slowest,
    budget,
  ))
    parts.push(part as string);
  return parts.join('');
}

/**
 * Writes `<runDir>/report.html` (atomically), streaming the run's result files into it, or the
 * entries a spool took from them while the report was built (html-spool.ts). The summary names the
 * slowest trials before the trial data: the report's own list when it has one (every report
 * buildReport makes), else one more pass over the files. Returns its path.
 */
export async function writeHtmlReport(
  runDir: string,
  report: EvaluationReport,
  out = join(runDir, 'report.html'),
  spool?: TrialPageSpool,
): Promise<string> {
  const slowest = report.slowest_trials ?? (await slowestTrials(readResults(runDir)));
  const budget = spool?.budget ?? pageBudgetFor(report.metrics.n_trials);
  await writeChunksAtomic(
    out,
    htmlReportParts(
      report,
      spool ? spool.chunks() : trialEntries(readResults(runDir), report.metrics.n_trials, budget),
      slowest,
      budget,
    ),
  );
  return out;
}

/** A task as the page reads it: without what only the job report reads (its trial link, its mean score). */
function pageTask(task: EvaluationReport['tasks'][number]): Omit<typeof task, 'task_id' | 'mean_score'> {
  const { task_id: _link, mean_score: _score, ...shown } = task;
  return shown;
}
