// evaluation_report.json in pieces: the text of JSON.stringify(report, null, 2) and a line break, with
// its `tasks` (one entry per sample) serialised one at a time rather than the whole report as one
// string, which for a large dataset is tens of megabytes and its copies.
import { randomUUID } from 'node:crypto';
import type { EvaluationReport } from './types.ts';

/** Stands for the tasks in the report's JSON; unique, so that no string of the report can hold it. */
const TASKS = `\u0000benchrig-tasks-${randomUUID()}`;

export function* reportJsonChunks(report: EvaluationReport): Generator<string> {
  const text = `${JSON.stringify({ ...report, tasks: TASKS }, null, 2)}\n`;
  const mark = JSON.stringify(TASKS);
  const at = text.indexOf(mark);
  if (at < 0) throw new Error('internal: the report lost its tasks');
  yield text.slice(0, at);
  if (report.tasks.length === 0) yield '[]';
  else {
    // `tasks` is a key of the top object: its entries are at depth 2 (4 spaces), its `]` at depth 1.
    let first = true;
    for (const t of report.tasks) {
      yield `${first ? '[\n' : ',\n'}    ${JSON.stringify(t, null, 2).replaceAll('\n', '\n    ')}`;
      first = false;
    }
    yield '\n  ]';
  }
  yield text.slice(at + mark.length);
}
