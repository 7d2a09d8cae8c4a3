// Translation between the wire APIs (docs/agents.md#translation): an agent that speaks OpenAI
// Responses or Anthropic Messages, against an upstream that speaks only Chat Completions. The
// request is translated whole; the answer whole, or event by event as it streams; an error answer
// into the agent's API's error shape.
import type { Protocol } from '../types.ts';
import { chatStreamToMessages } from './chat-stream-to-messages.ts';
import { chatStreamToResponses } from './chat-stream-to-responses.ts';
import { chatToMessages } from './chat-to-messages.ts';
import { chatToResponses } from './chat-to-responses.ts';
import type { StreamTranslator } from './chat-chunks.ts';
import { translateError } from './errors.ts';
import { messagesToChat } from './messages-to-chat.ts';
import { responsesToChat } from './responses-to-chat.ts';
import type { Json } from './wire.ts';

export type { StreamTranslator } from './chat-chunks.ts';
export type { Json } from './wire.ts';
/** One call's translation: the request for the upstream, and how its answer comes back. */
export interface Translation {
  /** The Chat Completions request (without `model`: the gateway pins it). */
  request: Json;
  /** A whole answer of the upstream as the agent's. */
  answer(body: Json): Json;
  /** A streamed answer of the upstream as the agent's. */
  stream(): StreamTranslator;
  /** An error answer of the upstream (status kept) as the agent's. */
  error(status: number, text: string): Json;
}

/** Whether requests of `agent`'s API can be answered by an upstream of `upstream`'s API through a translation. */
export const translates = (agent: Protocol, upstream: Protocol): agent is 'responses' | 'messages' =>
  agent !== 'chat' && upstream === 'chat';

/** The translation of one request of `agent`'s API to Chat Completions, answered as `model`. */
export function translate(agent: 'responses' | 'messages', body: Json, model: string): Translation {
  if (agent === 'responses') {
    const { request, info } = responsesToChat(body);
    return {
      request,
      answer: (b) => chatToResponses(b, info, model),
      stream: () => chatStreamToResponses(model, info),
      error: (status, text) => translateError('responses', status, text),
    };
  }
  return {
    request: messagesToChat(body),
    answer: (b) => chatToMessages(b, model),
    stream: () => chatStreamToMessages(model),
    error: (status, text) => translateError('messages', status, text),
  };
}
