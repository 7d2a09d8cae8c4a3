// A model call's messages as the OpenTelemetry GenAI semantic conventions record them on its span
// (docs/telemetry.md#model-calls): `gen_ai.input.messages`, `gen_ai.output.messages` and, for the
// APIs that take the system prompt apart from the chat (Responses, Anthropic, Gemini),
// `gen_ai.system_instructions`, each a JSON string of role/parts messages. Langfuse reads the
// first two as a generation's input and output. Read from the trial's transcript, so they exist
// only when transcripts are on. Bounded: a span is not the place for a whole long history.
import type { Attributes } from '@opentelemetry/api';
import { contentText, messageAt, transcriptOf, type TranscriptMessage } from '../report/transcript.ts';
import type { TrialResult } from '../types.ts';
import {
  ATTR,
  GEN_AI_INPUT_MESSAGES,
  GEN_AI_OUTPUT_MESSAGES,
  GEN_AI_RESPONSE_FINISH_REASONS,
  GEN_AI_SYSTEM_INSTRUCTIONS,
} from './attributes.ts';

/** A text part longer than this keeps its head and tail. */
const MAX_PART_CHARS = 4_000;
/** The input's JSON past this drops its oldest messages (the system prompt kept). */
const MAX_INPUT_CHARS = 64_000;
/** The APIs whose system prompt is not one of the chat's messages. */
const SEPARATE_SYSTEM = new Set(['responses', 'anthropic', 'gemini']);

type Part = Record<string, unknown>;
interface Message {
  role: string;
  parts: Part[];
  finish_reason?: string;
}

function clip(s: string): string {
  if (s.length <= MAX_PART_CHARS) return s;
  const half = MAX_PART_CHARS / 2;
  return `${s.slice(0, half)}\n… [${s.length - MAX_PART_CHARS} characters cut] …\n${s.slice(s.length - half)}`;
}

function toolArguments(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return clip(raw);
  }
}

/** The parts of a message: reasoning, text, the tool calls asked for; a tool's result as its response. */
function partsOf(m: TranscriptMessage): Part[] {
  const text = clip(contentText(m.content));
  if (m.role === 'tool') return [{ type: 'tool_call_response', id: m.tool_call_id ?? null, response: text }];
  const parts: Part[] = [];
  if (m.reasoning) parts.push({ type: 'reasoning', content: clip(m.reasoning) });
  if (text || !m.tool_calls?.length) parts.push({ type: 'text', content: text });
  for (const c of m.tool_calls ?? [])
    parts.push({ type: 'tool_call', id: c.id, name: c.name, arguments: toolArguments(c.arguments) });
  return parts;
}

/** The conventions' finish reasons (tool_call, not Chat Completions' tool_calls). */
const finishReason = (r: string | undefined) => (r === 'tool_calls' ? 'tool_call' : r || 'stop');

/** The newest messages whose JSON fits the bound (at least the last one); how many older ones were left out. */
function bounded(messages: Message[]): { kept: Message[]; dropped: number } {
  let size = 2;
  let i = messages.length;
  while (i > 0 && (i === messages.length || size + JSON.stringify(messages[i - 1]).length <= MAX_INPUT_CHARS))
    size += JSON.stringify(messages[--i]).length + 1;
  return { kept: messages.slice(i), dropped: i };
}

/** The GenAI message attributes of each call of the trial's transcript, by call id. */
export function callMessageAttributes(r: TrialResult): (callId: string) => Attributes {
  const t = transcriptOf(r);
  if (!t) return () => ({});
  const calls = new Map(t.calls.map((c) => [c.id, c]));
  return (id) => {
    const c = calls.get(id);
    if (!c || c.metadata_only) return {};
    const input = c.input.flatMap((k) => messageAt(t, k) ?? []);
    const lead = SEPARATE_SYSTEM.has(c.api) ? input.findIndex((m) => m.role !== 'system') : 0;
    const system = input.slice(0, lead < 0 ? input.length : lead);
    const chat = bounded(input.slice(system.length).map((m) => ({ role: m.role, parts: partsOf(m) })));
    const attrs: Attributes = { [GEN_AI_INPUT_MESSAGES]: JSON.stringify(chat.kept) };
    if (chat.dropped) attrs[ATTR.llmInputDropped] = chat.dropped;
    if (system.length) attrs[GEN_AI_SYSTEM_INSTRUCTIONS] = JSON.stringify(system.flatMap((m) => partsOf(m)));
    const answer = c.output ? messageAt(t, c.output.message) : undefined;
    if (c.output && answer) {
      const reason = finishReason(c.output.finish_reason);
      attrs[GEN_AI_OUTPUT_MESSAGES] = JSON.stringify([
        { role: 'assistant', parts: partsOf(answer), finish_reason: reason },
      ]);
      attrs[GEN_AI_RESPONSE_FINISH_REASONS] = [reason];
    }
    return attrs;
  };
}
