// Publishing a run's report (docs/reports.md#files), the same for `run`, `evaluate` and `review`:
// evaluation_report.json written atomically, then the same numbers for people in report.html, and
// as Markdown on a GitHub Actions run page when asked. Only the JSON file's failure throws: the
// others are warned about (or, without `warn`, left alone).
import { join } from 'node:path';
import { writeHtmlReport } from '../report/html.ts';
import type { TrialPageSpool } from '../report/html-spool.ts';
import { appendStepSummary } from '../report/markdown.ts';
import type { EvaluationReport } from '../report/types.ts';
import { reportJsonChunks } from '../report/report-json.ts';
import { writeChunksAtomic } from '../report/write.ts';
import { writeRunFiles } from '../formats/index.ts';

interface PublishOptions {
  /** report.html's trial data, made in the report's own pass (report/html-spool.ts); else read from the result files. */
  spool?: TrialPageSpool;
  /** `$GITHUB_STEP_SUMMARY`: the Markdown report is appended there. */
  stepSummary?: string;
  warn?: (line: string) => void;
  /** The benchmark's check types, which say its format's run files (run knows them; evaluate and review: the report's checks). */
  checkTypes?: string[];
}

export const REPORT_FILE = 'evaluation_report.json';

export async function publishReport(
  runDir: string,
  report: EvaluationReport,
  opts: PublishOptions = {},
): Promise<void> {
  await writeChunksAtomic(join(runDir, REPORT_FILE), reportJsonChunks(report));
  // The format's own run files beside it (formats/types.ts `runFiles`).
  await writeRunFiles(runDir, report, opts.checkTypes);
  await writeHtmlReport(runDir, report, undefined, opts.spool).catch((err) =>
    opts.warn?.(`report.html not written: ${(err as Error).message}`),
  );
  if (opts.stepSummary)
    await appendStepSummary(opts.stepSummary, report).catch((err) =>
      opts.warn?.(`$GITHUB_STEP_SUMMARY not written: ${(err as Error).message}`),
    );
}
