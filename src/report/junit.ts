// `benchrig report --format junit`: one <testsuite> for the run, one <testcase> per trial
// (classname = benchmark, name = task id), for CI systems that read JUnit XML.
// FAILED/TIMEOUT/AGENT_ERROR are <failure>, SANDBOX_ERROR/MODEL_ERROR an <error>, UNGRADABLE/AWAITING_REVIEW <skipped>.
import { FAILING_STATUSES, INFRA_STATUSES, type TrialResult } from '../types.ts';
import { failureReason } from './aggregate.ts';
import type { EvaluationReport } from './types.ts';

const SKIPPED = new Set(['UNGRADABLE', 'AWAITING_REVIEW']);
const MAX_TEXT = 8192;

/**
 * Text safe for XML 1.0: characters XML cannot carry at all (most C0 controls, lone surrogates,
 * U+FFFE/U+FFFF) become U+FFFD; markup characters become entities. In attributes, line breaks and
 * tabs become character references so parsers keep them.
 */
export function xmlEscape(text: string, attribute = false): string {
  /* eslint-disable no-control-regex -- XML 1.0 forbids these control characters: matching them is the point */
  let s = String(text).replace(
    /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    '\ufffd',
  );
  /* eslint-enable no-control-regex */
  s = s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  if (attribute)
    s = s
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
      .replace(/\n/g, '&#10;')
      .replace(/\r/g, '&#13;')
      .replace(/\t/g, '&#9;');
  return s;
}

const clip = (s: string, max = MAX_TEXT) =>
  s.length <= max ? s : `${s.slice(0, max)}\n… (${s.length - max} more characters)`;
const secs = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x.toFixed(3) : '0');

function details(r: TrialResult): string {
  const lines = [`status: ${r.status}`, `stop reason: ${r.stop_reason}`, `score: ${r.score ?? 'n/a'}`];
  if (r.error) lines.push(`error: ${r.error.kind}: ${r.error.message}`);
  for (const c of r.checks ?? [])
    lines.push(
      `check ${c.name} (${c.type}): ${c.passed === null ? 'ungradable' : c.passed ? 'passed' : 'failed'} — ${c.reason}`,
    );
  if (r.trace_id) lines.push(`trace id: ${r.trace_id}`);
  return clip(lines.join('\n'));
}

function testcase(suite: string, r: TrialResult): string {
  const open = `  <testcase classname="${xmlEscape(suite, true)}" name="${xmlEscape(r.task_id, true)}" time="${secs(r.metadata?.execution_time_s)}"`;
  const status = r.status;
  let body = '';
  if (FAILING_STATUSES.has(status)) {
    const reason = failureReason(r);
    body = `    <failure message="${xmlEscape(clip(reason, 1024), true)}" type="${status}">${xmlEscape(details(r))}</failure>\n`;
  } else if (INFRA_STATUSES.includes(status)) {
    const reason = failureReason(r);
    body = `    <error message="${xmlEscape(clip(reason, 1024), true)}" type="${status}">${xmlEscape(details(r))}</error>\n`;
  } else if (SKIPPED.has(status)) {
    body = `    <skipped message="${xmlEscape(`${status}: ${clip(failureReason(r), 1024)}`, true)}"/>\n`;
  }
  const out = r.response ? `    <system-out>${xmlEscape(clip(r.response))}</system-out>\n` : '';
  return body || out ? `${open}>\n${body}${out}  </testcase>\n` : `${open}/>\n`;
}

/** The whole document; trials are read once, in the order given. */
export async function formatJunit(
  report: EvaluationReport,
  results: Iterable<TrialResult> | AsyncIterable<TrialResult>,
): Promise<string> {
  const suite = report.benchmark.name;
  const cases: string[] = [];
  let failures = 0;
  let errors = 0;
  let skipped = 0;
  let time = 0;
  for await (const r of results) {
    if (FAILING_STATUSES.has(r.status)) failures++;
    else if (INFRA_STATUSES.includes(r.status)) errors++;
    else if (SKIPPED.has(r.status)) skipped++;
    if (typeof r.metadata?.execution_time_s === 'number') time += r.metadata.execution_time_s;
    cases.push(testcase(suite, r));
  }
  const attrs = [
    `name="${xmlEscape(suite, true)}"`,
    `tests="${cases.length}"`,
    `failures="${failures}"`,
    `errors="${errors}"`,
    `skipped="${skipped}"`,
    `time="${secs(report.run.duration_s ?? time)}"`,
    `timestamp="${xmlEscape(report.run.started_at, true)}"`,
  ].join(' ');
  const props = [
    ['benchmark.version', report.benchmark.version],
    ['agent', report.agent.id],
    ['run.id', report.run.id],
    ['pass_rate', report.metrics.pass_rate === null ? 'n/a' : String(report.metrics.pass_rate)],
    ['gate', report.gate ? `${report.gate.passed ? 'passed' : 'failed'}: ${report.gate.detail}` : 'none'],
  ]
    .map(([k, v]) => `    <property name="${xmlEscape(k, true)}" value="${xmlEscape(v, true)}"/>\n`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ${attrs}>\n<testsuite ${attrs}>\n  <properties>\n${props}  </properties>\n${cases.join('')}</testsuite>\n</testsuites>\n`;
}
