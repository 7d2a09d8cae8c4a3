// An LLM plays the user (docs/agents.md#the-conversation): the sample's instruction verbatim in its system prompt, the
// conversation with roles flipped, one message at a time, `###STOP###` anywhere ends it.
import type { ChatMessage } from '../agents/types.ts';
import type { SimulatedUser } from './types.ts';

export const STOP = '###STOP###';

function userSystemPrompt(instruction: string): string {
  return [
    'You are playing a user talking to an AI assistant. Stay in character and follow this instruction:',
    '',
    instruction,
    '',
    'Write only your next message to the assistant, one message at a time. Do not reveal that you are simulated.',
    `When your goal is reached, or the conversation cannot go further, write ${STOP} in your message.`,
  ].join('\n');
}

/** The simulated user's view: the agent speaks as `user`, the simulated user's own words are `assistant`. */
export function flipRoles(messages: ChatMessage[]): ChatMessage[] {
  return messages.map((m) => ({ role: m.role === 'assistant' ? 'user' : 'assistant', content: m.content ?? '' }));
}

export const llmUser: SimulatedUser = async ({ sample, messages, llm, lastReply }) => {
  // The agent declared the task finished (react's submit, oracle, nop): nothing is left to ask, so the
  // conversation ends as `agent_done` without spending a user-model call.
  if (lastReply.done) return null;
  const instruction = sample.user?.instruction ?? sample.input;
  const { message } = await llm.chat({
    messages: [{ role: 'system', content: userSystemPrompt(instruction) }, ...flipRoles(messages)],
  });
  const text = message.content ?? '';
  return text.includes(STOP) ? null : text.trim();
};
