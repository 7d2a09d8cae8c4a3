// `benchrig history DIR --format html`: the pass-rate trend of one agent on one benchmark across
// runs, with the 95% interval as a band, and the table of runs. One self-contained page.
import { HISTORY_JS } from './html-assets.ts';
import { escapeHtml, scriptJson } from './html.ts';
import type { HistoryRow } from './history.ts';
import { pageEnd, pageStart } from './page.ts';
import { runNames } from './run-names.ts';

/** The warning when the agent is not the same code in every run (history.ts `agent_changed`). */
function agentWarning(rows: HistoryRow[]): string {
  const changed = rows.filter((r) => r.agent_changed);
  if (changed.length === 0) return '';
  const where = changed.map((r) => r.label ?? r.name).join(', ');
  return `<div class="gate fail" id="agent-warning">warning: the agent differs from the run before in ${escapeHtml(where)} (another module, or its code or a local import changed): these runs are of different agents</div>`;
}

export function renderHistoryHtml(title: string, rows: HistoryRow[]): string {
  // what names each run in the chart and the table (run-names.ts): its label, else a suffix of its id
  const names = runNames(rows.map((r) => ({ id: r.run_id ?? r.name, label: r.label, folder: r.name })));
  return `${pageStart(`history ${title} · benchrig`, HISTORY_JS)}<header>
<h1>history <span class="note">${escapeHtml(title)}</span></h1>
<p class="sub">${rows.length} run(s), oldest first</p>
</header>
<main>
${agentWarning(rows)}
<div id="charts" class="charts wide"></div>
<h2>runs</h2>
<div id="history"></div>
</main>
<script type="application/json" id="benchrig-data">${scriptJson({ rows, names })}</script>
${pageEnd(HISTORY_JS)}`;
}
