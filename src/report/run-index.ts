// The run list of `benchrig view DIR`: every run folder (one holding evaluation_report.json or
// run.json) under DIR, read leniently (a half-written run still lists, with what it has), and the
// page that lists them. Runs are numbered by position; the server addresses them by that number
// only, so no path from a request ever reaches the file system.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { gateText, escapeHtml, scriptJson } from './html.ts';
import { INDEX_JS } from './html-assets.ts';
import { pageEnd, pageStart } from './page.ts';
import type { EvaluationReport, RunJsonSeen } from './types.ts';

export interface IndexedRun {
  i: number;
  dir: string;
  /** Path under the served folder. */
  name: string;
  /** Index of the folder holding it (evals/<agent>/<benchmark>), for its history. */
  group: number;
  agent: string;
  /** `run --label` and `--note`. */
  label: string | null;
  run_note: string | null;
  benchmark: string;
  started_at: string | null;
  status: string;
  trials: number | null;
  pass_rate: number | null;
  pass_rate_ci95: [number, number] | null;
  gate: string | null;
  has_report: boolean;
  note: string | null;
}

export interface RunIndex {
  root: string;
  runs: IndexedRun[];
  /** Folders holding runs (absolute), by group index. */
  groups: string[];
}

const MAX_DEPTH = 5;
const MAX_RUNS = 20_000;

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return null;
  }
}

async function entriesOf(dir: string): Promise<Array<{ name: string; dir: boolean }>> {
  try {
    return (await readdir(dir, { withFileTypes: true })).map((d) => ({ name: d.name, dir: d.isDirectory() }));
  } catch {
    return [];
  }
}

/** True when `dir` itself is a run folder. */
export async function isRunFolder(dir: string): Promise<boolean> {
  const names = (await entriesOf(dir)).map((e) => e.name);
  return names.includes('evaluation_report.json') || names.includes('run.json');
}

export async function indexRuns(root: string): Promise<RunIndex> {
  const found: string[] = [];
  const walk = async (dir: string, depth: number) => {
    if (found.length >= MAX_RUNS) return;
    const entries = await entriesOf(dir);
    if (entries.some((e) => !e.dir && (e.name === 'evaluation_report.json' || e.name === 'run.json'))) {
      found.push(dir);
      return;
    }
    if (depth >= MAX_DEPTH) return;
    for (const e of entries
      .filter((x) => x.dir && !x.name.startsWith('.') && x.name !== 'node_modules')
      .sort((a, b) => a.name.localeCompare(b.name)))
      await walk(join(dir, e.name), depth + 1);
  };
  await walk(root, 0);
  const groups: string[] = [];
  const runs: IndexedRun[] = [];
  for (const dir of found) {
    const report = (await readJson(join(dir, 'evaluation_report.json'))) as EvaluationReport | null;
    const run = (await readJson(join(dir, 'run.json'))) as RunJsonSeen | null;
    const parent = dirname(dir);
    let group = groups.indexOf(parent);
    if (group < 0) group = groups.push(parent) - 1;
    const ok = !!report?.metrics;
    runs.push({
      i: runs.length,
      dir,
      name: relative(root, dir) || '.',
      group,
      agent: String(report?.agent?.id ?? run?.agent?.id ?? '?'),
      label: report?.run?.label ?? run?.label ?? null,
      run_note: report?.run?.note ?? run?.note ?? null,
      benchmark: String(report?.benchmark?.name ?? run?.benchmark?.name ?? '?'),
      started_at: report?.run?.started_at ?? run?.started_at ?? null,
      status: String(report?.run?.status ?? run?.status ?? 'unknown'),
      trials: ok ? report.metrics.n_trials : null,
      pass_rate: ok ? report.metrics.pass_rate : null,
      pass_rate_ci95: ok ? report.metrics.pass_rate_ci95 : null,
      gate: ok ? gateText(report.gate) : null,
      has_report: ok,
      note: ok ? null : 'no evaluation_report.json (unfinished? `benchrig evaluate` grades it)',
    });
  }
  return { root, runs, groups };
}

export function renderIndexHtml(index: RunIndex): string {
  return `${pageStart(`runs in ${index.root} · benchrig`, INDEX_JS)}<header>
<h1>runs <span class="note">${escapeHtml(index.root)}</span></h1>
<p class="sub">${index.runs.length} run(s). Pick one to open its report, or several to compare them side by side.</p>
</header>
<main>
<div class="controls">
<button id="open-selected" disabled>open selected</button>
<button id="compare-selected" disabled>compare selected (0)</button>
<input id="r-search" type="search" placeholder="search agent, benchmark, run" aria-label="search runs">
</div>
<div id="runs"></div>
</main>
<script type="application/json" id="benchrig-data">${scriptJson({ runs: index.runs.map(({ dir: _d, ...r }) => r) })}</script>
${pageEnd(INDEX_JS)}`;
}
