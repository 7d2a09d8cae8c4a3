// SWE-bench on the trial page (browser code): the model patch as a diff, each line coloured by what it
// does (and marked by its first character, never by colour alone), and the graded tests of the
// `swebench` verdict's tests_status as a table, failures first. Text nodes only (viewer/dom.ts): a
// test name or a patch line of `<script>` shows as text.
import { el, isRecord, panel, verdict } from '../../viewer/dom.ts';
import type { PageTrial } from '../../viewer/types.ts';
import type { FormatView } from '../view-types.ts';

const GROUPS = ['FAIL_TO_PASS', 'PASS_TO_PASS', 'FAIL_TO_FAIL', 'PASS_TO_FAIL'];

function lineClass(line: string): string {
  if (line.startsWith('diff --git') || line.startsWith('+++ ') || line.startsWith('--- ')) return 'diff-file';
  if (line.startsWith('@@')) return 'diff-hunk';
  if (line.startsWith('+')) return 'diff-add';
  if (line.startsWith('-')) return 'diff-del';
  return 'diff-ctx';
}

/** The patch, one element per line. */
function diffView(patch: string): HTMLPreElement {
  const out = el('pre', 'diff');
  const lines = patch.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const line of lines) out.appendChild(el('span', lineClass(line), line + '\n'));
  return out;
}

const names = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => String(x)) : []);

/** One row per graded test: its group, its name, passed or failed; failures first within each group. */
function testsTable(status: Record<string, unknown>): HTMLTableElement {
  const t = el('table', 'tests-status');
  t.appendChild(
    el('thead', null, el('tr', null, [el('th', null, 'group'), el('th', null, 'test'), el('th', null, 'result')])),
  );
  const body = el('tbody');
  for (const group of GROUPS) {
    const g = status[group];
    if (!isRecord(g)) continue;
    const rows: Array<[string, boolean]> = [
      ...names(g.failure).map((n): [string, boolean] => [n, false]),
      ...names(g.success).map((n): [string, boolean] => [n, true]),
    ];
    for (const [name, passed] of rows)
      body.appendChild(
        el('tr', passed ? 'test-passed' : 'test-failed', [
          el('td', 'mono', group),
          el('td', 'mono', name),
          el('td', null, verdict(passed)),
        ]),
      );
  }
  t.appendChild(body);
  return t;
}

/** "FAIL_TO_PASS 2/3 passed, PASS_TO_PASS 10/10 passed". */
function summary(status: Record<string, unknown>): string {
  return GROUPS.flatMap((group) => {
    const g = status[group];
    if (!isRecord(g)) return [];
    const ok = names(g.success).length;
    const all = ok + names(g.failure).length;
    return all ? [`${group} ${ok}/${all} passed`] : [];
  }).join(', ');
}

export const swebenchView: FormatView = {
  keys: ['model_patch'],
  render(t: PageTrial): Node[] {
    const out: Node[] = [];
    const graded = (t.checks || []).find((c) => c.type === 'swebench' && isRecord(c.details?.tests_status));
    const status = graded?.details?.tests_status;
    if (isRecord(status)) {
      const line = summary(status);
      out.push(panel('tests' + (line ? ': ' + line : ''), testsTable(status), true));
    }
    const patch = t.extra?.model_patch;
    if (typeof patch === 'string')
      out.push(panel('model patch', patch ? diffView(patch) : el('span', 'note', '(empty)'), true));
    return out;
  },
};
