// Replies with an empty message and does nothing: a benchmark it passes is broken.
import type { Agent } from './types.ts';

export default function createNopAgent(): Agent {
  return { respond: async () => ({ content: '', done: true }) };
}
