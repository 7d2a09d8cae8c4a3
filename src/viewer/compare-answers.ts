// Two runs' answers to the same model calls, side by side (docs/reports.md#comparing-runs): for a
// task of the matrix, each trial the two runs share (the same task id) and, call by call, what the
// model answered in each. Calls are matched by who made them and their place among that caller's
// calls (the agent's 2nd call against the agent's 2nd call); a pair whose answers differ is marked.
import { attr, clear, el, option, pre } from './dom.ts';
import { sourceLabel } from './calls.ts';
import type { MatrixRow, MatrixRun, PageCall, PageTrial } from './types.ts';

interface AnswersNav {
  close(): void;
  /** Shows runs `a` and `b` instead. */
  pick(a: number, b: number): void;
}

const ORDER = ['agent', 'installed', 'user', 'judge'];

/** A trial's calls grouped by who made them, each group in order. */
function bySource(t: PageTrial | undefined): Record<string, PageCall[]> {
  const out: Record<string, PageCall[]> = {};
  for (const c of (t && t.transcript && t.transcript.calls) || []) (out[c.source] = out[c.source] || []).push(c);
  return out;
}

/** What a call answered, as text to compare: the answer's text and the tool calls it asked for. */
function answerText(t: PageTrial | undefined, c: PageCall | undefined): string {
  if (!t || !t.transcript || !c) return '';
  const m = c.output ? t.transcript.messages[c.output.message] : undefined;
  if (!m) return c.error ? 'error: ' + c.error.body : '';
  return [m.text, ...(m.tool_calls || []).map((x) => x.name + ' ' + x.arguments)].join('\n');
}

function answerCell(t: PageTrial | undefined, c: PageCall | undefined): HTMLTableCellElement {
  const td = el('td', 'answer-cell');
  if (!c) return el('td', 'answer-cell note', 'no such call');
  td.appendChild(el('div', 'note', String(c.model || '') + (c.metadata_only ? ' \u00b7 metadata only' : '')));
  const m = t && t.transcript && c.output ? t.transcript.messages[c.output.message] : undefined;
  if (m && (m.text || !(m.tool_calls && m.tool_calls.length))) td.appendChild(pre(m.text));
  for (const x of (m && m.tool_calls) || [])
    td.appendChild(el('div', 'msg-tool-call', [el('b', null, x.name), pre(x.arguments)]));
  if (c.error) td.appendChild(el('div', 'error-box', c.error.body));
  else if (!m && !c.metadata_only) td.appendChild(el('div', 'note', 'no answer'));
  return td;
}

/** The table of one trial's calls in runs `a` and `b`. */
function pairTable(ta: PageTrial | undefined, tb: PageTrial | undefined, labels: string[]): HTMLTableElement {
  const sa = bySource(ta);
  const sb = bySource(tb);
  const t = el('table', 'answers');
  t.appendChild(
    el(
      'thead',
      null,
      el(
        'tr',
        null,
        ['call', ...labels].map((h) => el('th', null, h)),
      ),
    ),
  );
  const body = el('tbody');
  for (const s of ORDER.concat(Object.keys(sa), Object.keys(sb)).filter((x, i, all) => all.indexOf(x) === i)) {
    const n = Math.max((sa[s] || []).length, (sb[s] || []).length);
    for (let k = 0; k < n; k++) {
      const ca = (sa[s] || [])[k];
      const cb = (sb[s] || [])[k];
      const differs = answerText(ta, ca) !== answerText(tb, cb);
      const head = el('td', null, [sourceLabel(s) + ' call ' + (k + 1), differs ? el('span', 'tag', 'differs') : null]);
      const tr = el('tr', differs ? 'differs' : null, [head, answerCell(ta, ca), answerCell(tb, cb)]);
      attr(tr, 'data-call', s + ':' + (k + 1));
      body.appendChild(tr);
    }
  }
  if (!body.firstChild) body.appendChild(el('tr', null, el('td', 'note', 'neither trial kept its model calls')));
  t.appendChild(body);
  return t;
}

function runPicker(runs: MatrixRun[], value: number, label: string, onPick: (i: number) => void): HTMLElement {
  const s = el('select', null);
  runs.forEach((r, i) => s.appendChild(option(String(i), r.label)));
  s.value = String(value);
  attr(s, 'aria-label', label);
  s.addEventListener('change', () => onPick(Number(s.value)));
  return el('label', null, [label + ' ', s]);
}

/** Whether a row has trials with model calls in at least two runs (then its answers can be compared). */
export function comparable(row: MatrixRow, byRun: Array<Record<string, PageTrial>>): boolean {
  let n = 0;
  row.cells.forEach((c, i) => {
    if (c && c.task_ids.some((id) => byRun[i][id] && byRun[i][id].transcript)) n++;
  });
  return n >= 2;
}

/** The side-by-side answers of `row` in runs `a` and `b`, into root. */
export function renderAnswers(
  root: HTMLElement,
  row: MatrixRow,
  runs: MatrixRun[],
  byRun: Array<Record<string, PageTrial>>,
  a: number,
  b: number,
  nav: AnswersNav,
): void {
  clear(root);
  const back = el('button', 'close', '\u2190 back');
  back.addEventListener('click', () => nav.close());
  root.appendChild(
    el('div', 'trial-head', [
      el('h2', null, ['answers to the same calls: ', el('span', 'mono', row.sample_id)]),
      el('div', 'trial-nav', [
        back,
        runPicker(runs, a, 'run', (i) => nav.pick(i, b)),
        runPicker(runs, b, 'against', (i) => nav.pick(a, i)),
      ]),
    ]),
  );
  const ids = row.cells[a] ? row.cells[a].task_ids : [];
  const shared = ids.filter((id) => row.cells[b] && row.cells[b].task_ids.indexOf(id) >= 0);
  if (!shared.length) root.appendChild(el('p', 'note', 'these two runs share no trial of this task'));
  for (const id of shared) {
    const sec = el('section', 'answers-trial', [el('h3', 'mono', id)]);
    attr(sec, 'data-task', id);
    sec.appendChild(pairTable(byRun[a][id], byRun[b][id], [runs[a].label, runs[b].label]));
    root.appendChild(sec);
  }
}
