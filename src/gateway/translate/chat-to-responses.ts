// A Chat Completions answer as an OpenAI Responses one (docs/agents.md#translation): the message's
// text an `output_text` message item, each tool call a `function_call` item (a `custom_tool_call`
// for a tool the request declared as custom), usage with the cached and reasoning counts;
// `finish_reason: "length"` is an incomplete response.
import type { ResponsesRequestInfo } from './responses-to-chat.ts';
import { argsObject, chatUsage, list, num, obj, responsesUsage, str, type Json } from './wire.ts';

export function chatToResponses(body: Json, info: ResponsesRequestInfo, model: string): Json {
  const choice = obj(list(body.choices)[0]);
  const message = obj(choice.message);
  const id = str(body.id) ?? 'chatcmpl';
  const output: Json[] = [];
  const text = str(message.content);
  if (text) output.push(messageItem(`msg_${id}`, text));
  list(message.tool_calls).forEach((c, i) => {
    const f = obj(obj(c).function);
    output.push(
      callItem(`fc_${id}_${i}`, str(obj(c).id) ?? `call_${i}`, str(f.name) ?? '', str(f.arguments) ?? '', info),
    );
  });
  return responseObject(id, num(body.created), model, output, chatUsage(body.usage), str(choice.finish_reason));
}

export function messageItem(id: string, text: string): Json {
  return {
    type: 'message',
    id,
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
}

export function callItem(id: string, callId: string, name: string, args: string, info: ResponsesRequestInfo): Json {
  if (info.custom.has(name)) {
    const input = argsObject(args).input;
    return {
      type: 'custom_tool_call',
      id,
      call_id: callId,
      name,
      input: typeof input === 'string' ? input : args,
      status: 'completed',
    };
  }
  return { type: 'function_call', id, call_id: callId, name, arguments: args, status: 'completed' };
}

/** The response object (`response.completed`'s too); `finish` "length": incomplete. */
export function responseObject(
  id: string,
  created: number,
  model: string,
  output: Json[],
  usage: ReturnType<typeof chatUsage> | null,
  finish: string | undefined,
): Json {
  const incomplete = finish === 'length';
  return {
    id: `resp_${id}`,
    object: 'response',
    created_at: created,
    status: incomplete ? 'incomplete' : 'completed',
    error: null,
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    model,
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage: usage ? responsesUsage(usage) : null,
  };
}
