// A trial's transcript as the pages embed it (docs/reports.md#the-trial-page): the result file's
// table of distinct messages, each once, with its content made text (an image part is named, not
// embedded), and the calls pointing into it by key; never a call's messages copied into the call.
// The tool definitions a call was offered, the same call after call, are kept once per trial too.
import { clipString, clipValue, type Clip, type CutCounter } from './clip.ts';
import { contentText, transcriptOf, type Transcript, type TranscriptMessage } from './transcript.ts';
import type { TrialResult } from '../types.ts';

interface PageMessage {
  role: string;
  text: string;
  name?: string;
  tool_call_id?: string;
  tool_calls?: Array<{ id: string; name: string; arguments: string }>;
  reasoning?: string;
  truncated?: { original_chars: number };
}

/** The strings of a message that can be long, as getters and setters (to measure, then to cut). */
function longStrings(m: PageMessage): Array<[() => string, (s: string) => void]> {
  const out: Array<[() => string, (s: string) => void]> = [[() => m.text, (s) => (m.text = s)]];
  if (m.reasoning !== undefined) out.push([() => m.reasoning ?? '', (s) => (m.reasoning = s)]);
  for (const c of m.tool_calls ?? []) out.push([() => c.arguments, (s) => (c.arguments = s)]);
  return out;
}

function pageMessage(m: TranscriptMessage): PageMessage {
  const out: PageMessage = { role: String(m.role), text: contentText(m.content) };
  if (typeof m.name === 'string') out.name = m.name;
  if (typeof m.tool_call_id === 'string') out.tool_call_id = m.tool_call_id;
  if (Array.isArray(m.tool_calls))
    out.tool_calls = m.tool_calls.map((c) => ({
      id: String(c?.id ?? ''),
      name: String(c?.name ?? ''),
      arguments: typeof c?.arguments === 'string' ? c.arguments : JSON.stringify(c?.arguments ?? null),
    }));
  if (typeof m.reasoning === 'string' && m.reasoning) out.reasoning = m.reasoning;
  if (m.truncated) out.truncated = m.truncated;
  return out;
}

/**
 * The longest string a message keeps so that the trial's messages fit `budget` characters: the
 * page's usual bound, halved until they fit (never under 600: a message still reads).
 */
function limitFor(lengths: number[], max: number, budget: number): number {
  let limit = max;
  const total = (n: number) => lengths.reduce((sum, len) => sum + Math.min(len, n), 0);
  while (limit > 600 && total(limit) > budget) limit = Math.max(600, Math.floor(limit / 2));
  return limit;
}

function pageMessages(t: Transcript, clip: Clip, cut: CutCounter): Record<string, PageMessage> {
  const out: Record<string, PageMessage> = {};
  for (const key of Object.keys(t.messages)) {
    const m = t.messages[key];
    if (typeof m === 'object' && m !== null) out[key] = pageMessage(m);
  }
  const strings = Object.values(out).flatMap(longStrings);
  const limit = limitFor(
    strings.map(([get]) => get().length),
    clip.maxString,
    clip.maxTranscript,
  );
  for (const [get, set] of strings) if (get().length > limit) set(clipString(get(), limit, cut));
  return out;
}

/** The page's transcript of a trial, or undefined when the result file has none. */
export function pageTranscript(r: TrialResult, clip: Clip, cut: CutCounter): Record<string, unknown> | undefined {
  const t = transcriptOf(r);
  if (!t) return undefined;
  const toolSets: unknown[] = [];
  const setIndex = new Map<string, number>();
  const calls = t.calls.map((c) => {
    const { tools, ...rest } = c;
    if (!Array.isArray(tools) || tools.length === 0) return clipValue(rest, clip, cut);
    const key = JSON.stringify(tools);
    let i = setIndex.get(key);
    if (i === undefined) {
      i = toolSets.push(clipValue(tools, clip, cut)) - 1;
      setIndex.set(key, i);
    }
    return { ...(clipValue(rest, clip, cut) as object), tools: i };
  });
  return {
    messages: pageMessages(t, clip, cut),
    calls,
    tool_sets: toolSets.length ? toolSets : undefined,
    truncated: t.truncated,
  };
}
