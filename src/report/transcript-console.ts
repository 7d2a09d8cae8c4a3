// One trial's transcript in the terminal (`benchrig report RUN --trial ID`, docs/cli.md#report):
// each model call in order with who made it, the model, latency, tokens and finish reason, then the
// messages it added to its conversation (a resent history is not printed again) and its answer.
import type { Transcript, TranscriptMessage, TrialResult } from '../types.ts';

/** Lines of one message shown, at most; the rest is counted. */
const MAX_LINES = 40;

type Call = Transcript['calls'][number];

export function formatTrialTranscript(r: TrialResult, o: { color: boolean }): string {
  const paint = (code: number, s: string) => (o.color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const head = `${r.task_id} (sample ${r.sample_id}, trial ${r.trial})  ${r.status}  score ${r.score === null ? '–' : r.score.toFixed(2)}`;
  const t = r.transcript;
  if (!t) {
    const calls = r.events.filter((e) => e.type === 'llm_call').length;
    return `${head}\nno transcript: ${calls} model call(s) kept as metadata only (the run had [run] transcripts = "metadata", --no-transcripts, or predates transcripts)\n`;
  }
  const out = [head, `${t.calls.length} model call(s), ${Object.keys(t.messages).length} distinct message(s)`];
  // What each caller's conversation already showed: a call that resends it prints only what is new.
  const shown = new Map<string, Set<string>>();
  for (const call of t.calls) {
    out.push('', paint(1, callLine(call)));
    if (call.metadata_only) out.push('   (content not kept: past the transcript bound)');
    const seen = shown.get(call.source) ?? new Set<string>();
    shown.set(call.source, seen);
    const earlier = call.input.filter((k) => seen.has(k)).length;
    if (earlier) out.push(paint(2, `   … ${earlier} earlier message(s)`));
    for (const key of call.input) if (!seen.has(key)) out.push(...messageLines(t.messages[key], '   ', paint));
    if (call.output) {
      out.push(...messageLines(t.messages[call.output.message], '   ← ', paint));
      seen.add(call.output.message);
    }
    for (const key of call.input) seen.add(key);
    if (call.error)
      out.push(paint(31, `   error${call.error.status ? ` ${call.error.status}` : ''}: ${call.error.body}`));
  }
  if (t.truncated)
    out.push('', paint(33, `${t.truncated.calls_without_content} call(s) without content: ${t.truncated.reason}`));
  return `${out.join('\n')}\n`;
}

function callLine(c: Call): string {
  const usage = c.output?.usage;
  return [
    `── ${c.id} ${c.source} ${c.api} ${c.model}`,
    `${c.latency_ms} ms`,
    ...(usage ? [`in ${usage.input} out ${usage.output}${usage.cached ? ` (cached ${usage.cached})` : ''}`] : []),
    ...(c.output?.finish_reason ? [c.output.finish_reason] : []),
    ...(c.tools?.length ? [`tools: ${c.tools.map((t) => t.name).join(', ')}`] : []),
    ...(c.params ? [JSON.stringify(c.params)] : []),
  ].join(' · ');
}

function messageLines(
  m: TranscriptMessage | undefined,
  indent: string,
  paint: (code: number, s: string) => string,
): string[] {
  if (!m) return [`${indent}(message not in the transcript)`];
  const label = m.role === 'tool' ? `tool${m.tool_call_id ? ` ${m.tool_call_id}` : ''}` : m.role;
  const pad = ' '.repeat(indent.length + 2);
  const lines: string[] = [];
  if (m.reasoning) lines.push(...clipped(m.reasoning).map((l) => paint(2, `${pad}(reasoning) ${l}`)));
  const text = typeof m.content === 'string' ? m.content : JSON.stringify(m.content);
  lines.push(...clipped(text).map((l) => `${pad}${l}`));
  for (const c of m.tool_calls ?? []) lines.push(`${pad}→ ${c.name}(${c.arguments}) [${c.id}]`);
  if (m.truncated) lines.push(paint(33, `${pad}(cut: ${m.truncated.original_chars} characters long)`));
  return [paint(36, `${indent}${label}`), ...lines.filter((l) => l.trim() !== '')];
}

function clipped(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length <= MAX_LINES) return lines;
  return [...lines.slice(0, MAX_LINES), `… (${lines.length - MAX_LINES} more lines)`];
}
