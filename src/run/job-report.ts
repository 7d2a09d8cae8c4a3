// A job's last step: the job report (report/job-report.ts) written as job_report.json and report.html
// in the job folder, and summed up on the console.
import { join, relative } from 'node:path';
import { CONFIGURED_MODEL, type Cell } from '../job/cells.ts';
import type { JobJson } from '../job/job-json.ts';
import { jobConsoleLines } from '../report/job-console.ts';
import { jobHtml } from '../report/job-html.ts';
import { buildJobReport, type JobReport } from '../report/job-report.ts';
import type { EvaluationReport } from '../report/types.ts';
import { writeJsonAtomic, writeTextAtomic } from '../report/write.ts';
import type { RunConsole } from './console.ts';

export interface JobReportCell {
  cell: Cell;
  runDir: string;
  report: EvaluationReport;
  exitCode: number;
}

const JOB_REPORT_FILE = 'job_report.json';

export async function publishJobReport(
  jobDir: string,
  json: JobJson,
  cells: JobReportCell[],
  o: { gateAny: boolean; exitCode: number; console: RunConsole },
): Promise<JobReport> {
  const report = buildJobReport(
    json.job_id,
    json.status,
    cells.map((c) => ({
      id: c.cell.id,
      label: c.cell.label,
      agent: c.cell.agentId,
      model: c.cell.model?.name ?? CONFIGURED_MODEL,
      run_dir: relative(jobDir, c.runDir).split('\\').join('/'),
      exit_code: c.exitCode,
      report: c.report,
    })),
  );
  const full = { ...report, gate_any: o.gateAny, exit_code: o.exitCode };
  await writeJsonAtomic(join(jobDir, JOB_REPORT_FILE), full);
  await writeTextAtomic(join(jobDir, 'report.html'), jobHtml(report));
  for (const line of jobConsoleLines(report, jobDir)) process.stderr.write(`${line}\n`);
  return report;
}
