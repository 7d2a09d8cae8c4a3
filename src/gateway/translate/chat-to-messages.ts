// A Chat Completions answer as an Anthropic Messages one (docs/agents.md#translation): the text a
// `text` block, each tool call a `tool_use` block with its arguments parsed, `finish_reason` as
// `stop_reason`, usage with the cached prompt tokens as cache reads.
import { argsObject, chatUsage, list, messagesUsage, obj, str, type Json } from './wire.ts';

const STOP: Record<string, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  content_filter: 'refusal',
};

export const stopReason = (finish: string | undefined, sawTool: boolean): string =>
  (finish && STOP[finish]) ?? (sawTool ? 'tool_use' : 'end_turn');

export function chatToMessages(body: Json, model: string): Json {
  const choice = obj(list(body.choices)[0]);
  const message = obj(choice.message);
  const content: Json[] = [];
  const text = str(message.content);
  if (text) content.push({ type: 'text', text });
  list(message.tool_calls).forEach((c, i) => {
    const f = obj(obj(c).function);
    content.push({
      type: 'tool_use',
      id: str(obj(c).id) ?? `toolu_${i}`,
      name: str(f.name) ?? '',
      input: argsObject(str(f.arguments) ?? ''),
    });
  });
  return {
    id: `msg_${str(body.id) ?? 'chatcmpl'}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stopReason(
      str(choice.finish_reason),
      content.some((b) => b.type === 'tool_use'),
    ),
    stop_sequence: null,
    usage: messagesUsage(chatUsage(body.usage)),
  };
}
