// The simulated-user seam (docs/agents.md#the-conversation): given the session, the next user message or null to stop.
import type { AgentReply, ChatMessage, LlmClient } from '../agents/types.ts';
import type { Sample } from '../types.ts';

export interface UserSession {
  /** The full sample, with `user` (turns or instruction); users may see ground truth, agents may not. */
  sample: Sample;
  /** The turn that just ended (1-based). */
  turn: number;
  /** The conversation so far from the user's side: user messages and agent replies. */
  messages: ChatMessage[];
  lastReply: AgentReply;
  /** The simulated user's own model client (counts against max_user_llm_calls). */
  llm: LlmClient;
  signal: AbortSignal;
}

export type SimulatedUser = (session: UserSession) => string | null | Promise<string | null>;
