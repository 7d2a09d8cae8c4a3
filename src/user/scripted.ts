// Sends the sample's `user.turns` in order, then `continuation` while the agent has not said done.
import type { SimulatedUser } from './types.ts';

export function scriptedUser(continuation: string | undefined): SimulatedUser {
  return ({ sample, turn, lastReply }) => {
    const turns = sample.user?.turns ?? [];
    // Turn 1 was the sample's input; turns[0] is the second user message.
    if (turn - 1 < turns.length) return turns[turn - 1];
    if (continuation !== undefined && !lastReply.done) return continuation;
    return null;
  };
}
