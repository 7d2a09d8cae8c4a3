// A result file's model-call transcript (docs/reports.md#a-result-file, `transcript`), read for the
// places that show it: the trial page's data, the ATIF export and the GenAI spans. Every distinct
// message is stored once, keyed by its hash; a call names its input and its answer by those keys.
// Read defensively: a file of another version, or hand-edited, yields no transcript, never a throw.
import type { Transcript, TranscriptMessage, TrialResult } from '../types.ts';

export type { Transcript, TranscriptMessage };

/** One model call of a transcript. */
type TranscriptCall = Transcript['calls'][number];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The trial's transcript when it has one of the version this code reads (the rest of the file is still shown). */
export function transcriptOf(r: TrialResult): Transcript | null {
  const t: unknown = r.transcript;
  if (!isObject(t) || t.version !== 1 || !isObject(t.messages) || !Array.isArray(t.calls)) return null;
  const calls = t.calls.filter(
    (c): c is TranscriptCall => isObject(c) && typeof c.id === 'string' && Array.isArray(c.input),
  );
  return { ...(t as unknown as Transcript), calls };
}

/** A call's message by key; undefined for a key the table lacks. */
export function messageAt(t: Transcript, key: string | undefined): TranscriptMessage | undefined {
  if (key === undefined || !Object.hasOwn(t.messages, key)) return undefined;
  const m = t.messages[key];
  return isObject(m) ? m : undefined;
}

/** A message's content as text: text parts joined, other parts named in brackets (an image as `[image_url]`). */
export function contentText(content: TranscriptMessage['content'] | null | undefined): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p) => {
      if (typeof p === 'string') return p;
      if (!isObject(p)) return '';
      for (const k of ['text', 'content', 'output']) if (typeof p[k] === 'string') return p[k];
      return `[${typeof p.type === 'string' ? p.type : 'part'}]`;
    })
    .filter((s) => s !== '')
    .join('\n');
}

/** The answer of a call: its output message, when the call has one. */
export function answerOf(t: Transcript, c: TranscriptCall): TranscriptMessage | undefined {
  return c.output ? messageAt(t, c.output.message) : undefined;
}

/** The calls of the agent's model (its own client, or an installed agent's through the gateway), in order. */
export const agentCalls = (t: Transcript): TranscriptCall[] =>
  t.calls.filter((c) => c.source === 'agent' || c.source === 'installed');
