// One `chat.completion.chunk` of a Chat Completions stream, read into what the streaming translators
// act on (docs/agents.md#translation): text, tool-call pieces by index, the finish reason, the usage
// (the last chunk with `stream_options.include_usage`) or an error the server put in the stream.
import { chatUsage, list, obj, str, type ChatUsage } from './wire.ts';

export interface ToolPiece {
  index: number;
  id?: string;
  name?: string;
  args?: string;
}

export interface ChatChunk {
  id?: string;
  created?: number;
  text: string;
  /** Reasoning text, where the server streams it (`reasoning_content`, `reasoning`). */
  reasoning?: string;
  tools: ToolPiece[];
  finish?: string;
  usage?: ChatUsage;
  error?: string;
  /** The `[DONE]` line. */
  done: boolean;
}

export function readChatChunk(data: string): ChatChunk {
  const empty: ChatChunk = { text: '', tools: [], done: false };
  if (data.trim() === '[DONE]') return { ...empty, done: true };
  let raw: unknown;
  try {
    raw = JSON.parse(data);
  } catch {
    return empty; // not JSON: nothing to translate
  }
  const chunk = obj(raw);
  const err = obj(chunk.error);
  if (chunk.error !== undefined) return { ...empty, error: str(err.message) ?? JSON.stringify(chunk.error) };
  const out: ChatChunk = {
    ...empty,
    id: str(chunk.id),
    created: typeof chunk.created === 'number' ? chunk.created : undefined,
    ...(chunk.usage ? { usage: chatUsage(chunk.usage) } : {}),
  };
  const choice = obj(list(chunk.choices)[0]);
  const delta = obj(choice.delta);
  out.text = str(delta.content) ?? '';
  const reasoning = str(delta.reasoning_content) ?? str(delta.reasoning);
  if (reasoning) out.reasoning = reasoning;
  out.finish = str(choice.finish_reason);
  for (const t of list(delta.tool_calls).map(obj)) {
    const f = obj(t.function);
    out.tools.push({
      index: typeof t.index === 'number' ? t.index : 0,
      id: str(t.id) || undefined,
      name: str(f.name) || undefined,
      args: str(f.arguments),
    });
  }
  return out;
}

/** An SSE event as text: `event:` line (Responses and Messages name their events) and `data:`. */
export const sseText = (type: string, data: unknown): string => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;

/** What turns an upstream stream into the agent's, one upstream event's data at a time. */
export interface StreamTranslator {
  /** The agent's SSE text for one upstream event (possibly empty). */
  event(data: string): string;
  /** The upstream stream ended: the agent's closing events, if the stream has not closed already. */
  end(): string;
}
