// A streamed Chat Completions answer carries its usage only when the request asks for it
// (`stream_options.include_usage`): without it a call would be recorded as 0 tokens and $0. So the
// gateway asks on every streamed Chat Completions call it passes through, and an agent that did not
// ask never gets the extra chunk (docs/agents.md#the-model-gateway). Responses and Messages streams
// always carry their usage; a translated request asks already (translate/*-to-chat.ts).
import { SseReader, type SseEvent } from './sse.ts';

/** The `stream_options` to forward instead of the agent's, or null when the agent asked for the usage itself. */
export function askForUsage(streamOptions: unknown): Record<string, unknown> | null {
  const own = streamOptions !== null && typeof streamOptions === 'object' && !Array.isArray(streamOptions);
  const options = own ? (streamOptions as Record<string, unknown>) : {};
  return options.include_usage === true ? null : { ...options, include_usage: true };
}

/** The chunk `include_usage` adds: no choices, the usage. (A last chunk with choices and usage is kept.) */
function isUsageChunk(e: SseEvent): boolean {
  let chunk: unknown;
  try {
    chunk = JSON.parse(e.data);
  } catch {
    return false;
  }
  if (chunk === null || typeof chunk !== 'object') return false;
  const { choices, usage } = chunk as { choices?: unknown; usage?: unknown };
  return Array.isArray(choices) && choices.length === 0 && usage !== null && typeof usage === 'object';
}

/** A reader whose `send` gets every block of the stream, as it came, but the usage chunk. */
export function usageFilter(send: (raw: string) => void, onEvent: (e: SseEvent) => void): SseReader {
  return new SseReader(onEvent, (raw, e) => {
    if (!e || !isUsageChunk(e)) send(raw);
  });
}

/** A whole stored stream without its usage chunk (a replay to an agent that did not ask). */
export function withoutUsageChunk(body: string): string {
  let out = '';
  const reader = usageFilter(
    (raw) => (out += raw),
    () => {},
  );
  reader.push(Buffer.from(body));
  reader.end();
  return out;
}
