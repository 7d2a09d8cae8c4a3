// The agent contract (docs/agents.md#writing-an-agent), checked where benchrig meets an agent: what a
// factory returns (at the load check, run/prepare.ts through agents/probe.ts, and in every trial) and
// what respond() returns (every reply, trial/conversation.ts). A broken contract is named as the
// contract, never as benchrig's own code.
import type { Agent, AgentReply } from './types.ts';

export const AGENT_CONTRACT =
  'the factory must return { respond(message), close?() } (docs/agents.md#writing-an-agent)';
export const REPLY_CONTRACT =
  'it must return a string or { content: string, done?: boolean, blocked?: boolean, state?: object, contexts?: [{ id?, text, score? }] } (docs/agents.md#writing-an-agent)';

/** What an agent broke of its contract: an AGENT_ERROR in a trial (its kind is `agent`, lifecycle.ts). */
export class AgentContractError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AgentContractError';
  }
}

/** What a factory returned, as plain data: the load check's thread sends it across (probe-thread.mjs makes the same). */
export interface AgentShape {
  /** `typeof`, with `null` and `array` told apart. */
  type: string;
  /** An object's own and inherited method names and keys (at most 10). */
  keys: string[];
  /** `typeof` its respond. */
  respond: string;
}

export function shapeOf(value: unknown): AgentShape {
  const type = kindOf(value);
  if (type !== 'object' && type !== 'function') return { type, keys: [], respond: 'undefined' };
  const obj = value as Record<string, unknown>;
  return { type, keys: keysOf(obj), respond: typeof obj.respond };
}

/** What is wrong with what a factory returned (`returned …`), or null. */
export function agentProblem(shape: AgentShape): string | null {
  if (shape.type !== 'object' && shape.type !== 'function') return `returned ${article(shape.type)}`;
  if (shape.respond === 'function') return null;
  const has = shape.keys.length ? `it has ${shape.keys.join(', ')}` : 'it has no keys';
  const respond = shape.respond === 'undefined' ? 'no respond' : `a respond that is ${article(shape.respond)}`;
  return `returned an object with ${respond} (${has})`;
}

/** The agent a factory returned, or an AgentContractError naming the contract. */
export function checkAgent(value: unknown): Agent {
  // The common case at once: every trial checks its agent, and shapeOf lists keys.
  if (typeof (value as { respond?: unknown } | null)?.respond === 'function') return value as Agent;
  const problem = agentProblem(shapeOf(value));
  if (problem) throw new AgentContractError(`the agent's factory ${problem}; ${AGENT_CONTRACT}`);
  return value as Agent;
}

/**
 * A reply as the conversation takes it: a string is `{content}`; an object must have a string
 * `content` and, when set, a boolean `done` and `blocked` and an object `state`. Anything else is
 * an AgentContractError that names the contract. Keys it does not know are left as they are.
 */
export function normaliseReply(reply: unknown): AgentReply {
  if (typeof reply === 'string') return { content: reply };
  const type = kindOf(reply);
  if (type !== 'object') throw wrongReply(`returned ${article(type)}${sample(reply)}`);
  const r = reply as Record<string, unknown>;
  if (typeof r.content !== 'string')
    throw wrongReply(
      r.content === undefined
        ? `returned an object without content (it has ${keysOf(r).join(', ') || 'no keys'})`
        : `returned content that is ${article(kindOf(r.content))}`,
    );
  for (const flag of ['done', 'blocked'] as const)
    if (r[flag] !== undefined && typeof r[flag] !== 'boolean')
      throw wrongReply(`returned ${flag} that is ${article(kindOf(r[flag]))}`);
  if (r.state !== undefined && r.state !== null && kindOf(r.state) !== 'object')
    throw wrongReply(`returned state that is ${article(kindOf(r.state))}`);
  return r as unknown as AgentReply;
}

const wrongReply = (what: string) => new AgentContractError(`respond() ${what}; ${REPLY_CONTRACT}`);

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

const article = (type: string) =>
  type === 'undefined' || type === 'null' ? type : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;

/** A short look at a number or boolean that came back instead of a reply. */
const sample = (value: unknown) =>
  typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' ? ` (${String(value)})` : '';

function keysOf(obj: object): string[] {
  const keys = new Set<string>(Object.keys(obj));
  // A class instance's methods live on its prototype.
  for (
    let p = Object.getPrototypeOf(obj) as object | null;
    p && p !== Object.prototype;
    p = Object.getPrototypeOf(p) as object | null
  )
    for (const k of Object.getOwnPropertyNames(p)) if (k !== 'constructor') keys.add(k);
  return [...keys].slice(0, 10);
}
