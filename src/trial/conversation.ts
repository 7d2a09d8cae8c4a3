// The turn loop of docs/agents.md#the-conversation. Hitting a limit is not an error: the trial is graded on what was said.
import { normaliseReply } from '../agents/contract.ts';
import type { Agent, AgentReply, ChatMessage, LlmClient } from '../agents/types.ts';
import { LimitExceeded } from '../errors.ts';
import type { SimulatedUser } from '../user/types.ts';
import type { Sample, StopReason } from '../types.ts';
import { replyContexts } from './contexts.ts';
import type { Recorder } from './recorder.ts';

export interface ConversationOutcome {
  stopReason: StopReason;
  replies: string[];
  blocked: boolean;
  state: Record<string, unknown> | undefined;
  limit: { kind: string; value: number; limit: number } | null;
}

interface ConversationInput {
  agent: Agent;
  user: SimulatedUser;
  sample: Sample;
  maxTurns: number;
  agentLlm: LlmClient;
  userLlm: LlmClient;
  recorder: Recorder;
  signal: AbortSignal;
}

export async function converse(c: ConversationInput): Promise<ConversationOutcome> {
  const out: ConversationOutcome = {
    stopReason: 'user_done',
    replies: [],
    blocked: false,
    state: undefined,
    limit: null,
  };
  const messages: ChatMessage[] = [];
  let message = c.sample.input;
  for (let turn = 1; ; turn++) {
    if (turn > c.maxTurns) return stopAt(c, out, { kind: 'turns', value: turn, limit: c.maxTurns }, 'max_turns');
    // Spent: the next turn would start past the budget (its first call, used + 1, would be refused).
    if (c.agentLlm.callsLeft === 0) {
      const used = c.agentLlm.callsUsed;
      return stopAt(c, out, { kind: 'llm_calls', value: used + 1, limit: used }, 'llm_budget');
    }
    c.recorder.record({ type: 'user_message', content: message });
    messages.push({ role: 'user', content: message });
    let reply: AgentReply;
    try {
      reply = normaliseReply(await c.agent.respond(message)); // a string is {content}; a wrong shape names the contract
    } catch (err) {
      if (err instanceof LimitExceeded) return stopAt(c, out, limitOf(err), 'llm_budget');
      throw err;
    }
    c.signal.throwIfAborted();
    const { content } = reply;
    const retrieved = replyContexts(reply, turn); // a reply's contexts (docs/agents.md#retrieved-contexts)
    if (retrieved) c.recorder.record(retrieved);
    c.recorder.record({ type: 'agent_message', content, done: reply.done, blocked: reply.blocked });
    out.replies.push(content);
    out.blocked ||= reply.blocked === true;
    if (reply.state) out.state = reply.state;
    messages.push({ role: 'assistant', content });
    let next: string | null;
    try {
      next = await c.user({
        sample: c.sample,
        turn,
        messages: [...messages],
        lastReply: reply,
        llm: c.userLlm,
        signal: c.signal,
      });
    } catch (err) {
      // The user's own budget running out ends the conversation; it is not the agent's failure.
      if (err instanceof LimitExceeded) return stopAt(c, out, limitOf(err), 'user_done');
      throw err;
    }
    if (next === null || next === undefined) return { ...out, stopReason: reply.done ? 'agent_done' : 'user_done' };
    message = next;
  }
}

type Limit = NonNullable<ConversationOutcome['limit']>;

const limitOf = (err: LimitExceeded): Limit => ({ kind: err.limitKind, value: err.value, limit: err.limit });

/** The conversation stops on a limit: a `limit` event ends its trajectory and `metadata.limit` records it (docs/agents.md#the-conversation). */
function stopAt(
  c: ConversationInput,
  out: ConversationOutcome,
  limit: Limit,
  stopReason: StopReason,
): ConversationOutcome {
  c.recorder.record({ type: 'limit', ...limit });
  return { ...out, limit, stopReason };
}
