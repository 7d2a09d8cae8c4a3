// What an agent reports it retrieved (docs/agents.md#retrieved-contexts): a reply's `contexts`, or a
// `retrieved` event it records. The agent is an adversary here: a list that is not one, an item
// without a string text, an id that is neither string nor number, a score that is not a finite
// number is a broken contract (the trial is AGENT_ERROR); a long list or text is bounded, never
// kept whole, so no reply can bloat a result file.
import { MAX_CONTEXT_CHARS, MAX_CONTEXTS, MAX_RETRIEVED_EVENTS } from '../limits.ts';
import type { NewEvent, RetrievedContext } from '../types.ts';

const CONTRACT =
  'contexts must be a list of {id?: string, text: string, score?: number}, best first (docs/agents.md#retrieved-contexts)';

/** A reported list, kept within the bounds, with how much was left out. */
interface BoundedContexts {
  contexts: RetrievedContext[];
  dropped?: number;
  cut?: number;
}

function item(v: unknown, where: string): { context: RetrievedContext; cut: boolean } {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error(`${where} is not an object: ${CONTRACT}`);
  const o = v as Record<string, unknown>;
  const text: unknown = o.text;
  if (typeof text !== 'string') throw new Error(`${where}.text is not a string: ${CONTRACT}`);
  const id: unknown = o.id;
  if (id !== undefined && typeof id !== 'string' && !(typeof id === 'number' && Number.isFinite(id)))
    throw new Error(`${where}.id is neither a string nor a number: ${CONTRACT}`);
  const score: unknown = o.score;
  if (score !== undefined && (typeof score !== 'number' || !Number.isFinite(score)))
    throw new Error(`${where}.score is not a finite number: ${CONTRACT}`);
  const cut = text.length > MAX_CONTEXT_CHARS;
  const context: RetrievedContext = {
    ...(id !== undefined ? { id: String(id).slice(0, MAX_CONTEXT_CHARS) } : {}),
    text: cut ? text.slice(0, MAX_CONTEXT_CHARS) : text,
    ...(score !== undefined ? { score } : {}),
  };
  return { context, cut };
}

/**
 * `value` as a bounded list of contexts; throws a message naming `where` and the contract when it
 * is not one. Only the kept items are looked at: a list of millions costs the first MAX_CONTEXTS.
 */
export function boundedContexts(value: unknown, where: string): BoundedContexts {
  if (!Array.isArray(value)) throw new Error(`${where} is not a list: ${CONTRACT}`);
  const length = value.length;
  const kept = value.slice(0, MAX_CONTEXTS);
  let cut = 0;
  const contexts = kept.map((v, i) => {
    const r = item(v, `${where}[${i}]`);
    if (r.cut) cut++;
    return r.context;
  });
  return {
    contexts,
    ...(length > kept.length ? { dropped: length - kept.length } : {}),
    ...(cut ? { cut } : {}),
  };
}

/** The `retrieved` event of a reply that carried `contexts` (recorded by the harness), or null when it carried none. */
export function replyContexts(reply: unknown, turn: number): NewEvent | null {
  if (!reply || typeof reply !== 'object' || !('contexts' in reply) || reply.contexts === undefined) return null;
  return {
    type: 'retrieved',
    source: 'reply',
    turn,
    ...boundedContexts(reply.contexts, 'respond() returned contexts'),
  };
}

/**
 * ctx.record as an agent holds it: a `retrieved` event is checked, bounded and rebuilt as one of
 * the agent's own (`source: "tool"`, whatever it wrote: only the harness records a reply's), at most
 * MAX_RETRIEVED_EVENTS of them a trial; every other event passes through unchanged.
 */
export function agentRecord(record: (e: NewEvent) => void): (e: NewEvent) => void {
  let retrieved = 0;
  return (e) => {
    const o: unknown = e;
    if (!o || typeof o !== 'object' || (o as { type?: unknown }).type !== 'retrieved') return record(e);
    const ev = o as Record<string, unknown>;
    const where = 'ctx.record({type: "retrieved", contexts})';
    if (++retrieved > MAX_RETRIEVED_EVENTS)
      throw new Error(`${where}: more than ${MAX_RETRIEVED_EVENTS} retrieved events in one trial; report fewer`);
    const tool = typeof ev.tool === 'string' ? { tool: ev.tool.slice(0, 200) } : {};
    record({ type: 'retrieved', source: 'tool', ...tool, ...boundedContexts(ev.contexts, `${where}: contexts`) });
  };
}
