// What an ATIF trajectory takes from the result file's transcript (docs/export.md#atif): the
// system prompt the agent's model was given, as system steps, and each agent step's answer: the
// model's text as the step's message, its reasoning as `reasoning_content`.
import type { TrialResult } from '../types.ts';
import { agentCalls, answerOf, contentText, messageAt, transcriptOf, type Transcript } from './transcript.ts';

export interface AtifAnswer {
  message: string;
  reasoning_content?: string;
  /** The call's id in the result file's transcript, and why the model stopped. */
  extra: Record<string, unknown>;
}

export interface AtifTranscript {
  /** The system messages the agent's first model call began with. */
  system: string[];
  /** The answer of the agent's call of this id; undefined when the transcript lacks it. */
  answer(callId: unknown): AtifAnswer | undefined;
}

function systemOf(t: Transcript): string[] {
  const first = agentCalls(t)[0];
  const out: string[] = [];
  for (const key of first?.input ?? []) {
    const m = messageAt(t, key);
    if (m?.role !== 'system') break;
    out.push(contentText(m.content));
  }
  return out;
}

/** The transcript as the export reads it; null when the trial has none. */
export function atifTranscript(r: TrialResult): AtifTranscript | null {
  const t = transcriptOf(r);
  if (!t) return null;
  const calls = new Map(agentCalls(t).map((c) => [c.id, c]));
  return {
    system: systemOf(t),
    answer(callId) {
      const c = typeof callId === 'string' ? calls.get(callId) : undefined;
      if (!c) return undefined;
      const a = answerOf(t, c);
      const extra: Record<string, unknown> = { call: c.id };
      if (c.output?.finish_reason) extra.finish_reason = c.output.finish_reason;
      if (c.metadata_only) extra.metadata_only = true;
      return {
        message: a ? contentText(a.content) : '',
        ...(a?.reasoning ? { reasoning_content: a.reasoning } : {}),
        extra,
      };
    },
  };
}
