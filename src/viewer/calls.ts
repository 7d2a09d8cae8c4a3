// A trial's model calls as the trial page reads them (docs/reports.md#the-trial-page): each call by
// its id, the previous call of the same caller (what "new" is measured against), and the text a
// search looks through, made once per call on the first search.
import type { PageCall, PageMessage, PageTranscript } from './types.ts';

export interface CallIndex {
  readonly transcript: PageTranscript;
  call(id: unknown): PageCall | undefined;
  /** The message of a key; undefined when the transcript lacks it. */
  message(key: string | undefined): PageMessage | undefined;
  /** The keys of `c`'s input that were neither in the previous call's input nor its answer (the same caller's). */
  fresh(c: PageCall): Record<string, boolean>;
  /** Whether the previous call of the same caller exists (the first call's messages are all new). */
  hasPrevious(c: PageCall): boolean;
  /** Lower-cased text of the call: every input message, the answer, its reasoning and tool calls. */
  text(c: PageCall): string;
}

/** Who made a call, as the page names it. */
export function sourceLabel(source: string): string {
  if (source === 'user') return 'simulated user';
  if (source === 'installed') return 'agent (installed)';
  return source;
}

/** A message's text as a search sees it: its text, reasoning, and each tool call's name and arguments. */
export function messageSearchText(m: PageMessage | undefined): string {
  if (!m) return '';
  let s = m.text + '\n' + (m.reasoning || '');
  for (const c of m.tool_calls || []) s += '\n' + c.name + ' ' + c.arguments;
  return s.toLowerCase();
}

const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

export function indexCalls(t: PageTranscript): CallIndex {
  const byId: Record<string, PageCall> = {};
  const previous: Record<string, PageCall | undefined> = {};
  const last: Record<string, PageCall> = {};
  for (const c of t.calls) {
    byId[c.id] = c;
    previous[c.id] = own(last, c.source) ? last[c.source] : undefined;
    last[c.source] = c;
  }
  const texts: Record<string, string> = {};
  const message = (key: string | undefined) =>
    key !== undefined && own(t.messages, key) ? t.messages[key] : undefined;
  return {
    transcript: t,
    call: (id) => (typeof id === 'string' && own(byId, id) ? byId[id] : undefined),
    message,
    hasPrevious: (c) => previous[c.id] !== undefined,
    fresh(c) {
      const p = previous[c.id];
      const seen: Record<string, boolean> = {};
      if (p) {
        for (const k of p.input) seen[k] = true;
        if (p.output) seen[p.output.message] = true;
      }
      const out: Record<string, boolean> = {};
      for (const k of c.input) if (!seen[k]) out[k] = true;
      return out;
    },
    text(c) {
      if (!own(texts, c.id)) {
        const parts = c.input.map((k) => messageSearchText(message(k)));
        if (c.output) parts.push(messageSearchText(message(c.output.message)));
        if (c.error) parts.push(String(c.error.body).toLowerCase());
        texts[c.id] = parts.join('\n');
      }
      return texts[c.id];
    },
  };
}
