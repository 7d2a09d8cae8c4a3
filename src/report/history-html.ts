// `benchrig history DIR --format html`: the pass-rate trend of one agent on one benchmark across
// runs, with the 95% interval as a band, and the table of runs. One self-contained page.
import { HISTORY_JS } from './html-assets.ts';
import { escapeHtml, scriptJson } from './html.ts';
import type { HistoryRow } from './history.ts';
import { pageEnd, pageStart } from './page.ts';

export function renderHistoryHtml(title: string, rows: HistoryRow[]): string {
  return `${pageStart(`history ${title} · benchrig`, HISTORY_JS)}<header>
<h1>history <span class="note">${escapeHtml(title)}</span></h1>
<p class="sub">${rows.length} run(s), oldest first</p>
</header>
<main>
<div id="charts" class="charts wide"></div>
<h2>runs</h2>
<div id="history"></div>
</main>
<script type="application/json" id="benchrig-data">${scriptJson({ rows })}</script>
${pageEnd(HISTORY_JS)}`;
}
