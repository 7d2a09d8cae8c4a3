// Trajectory metrics (docs/checks.md#trajectory-metrics) over the trial's `tool_call` events, each paired with its
// `tool_result`. A call whose result says `denied: true` was not executed. Every metric passes at
// 1.0. Expected calls come from the expectation: `[{tool, args}]` (a bare string names a tool).
import type { CheckImpl, CheckInput } from './types.ts';
import type { TrajectoryEvent, Verdict } from '../types.ts';
import { deepEqual } from './json-field.ts';
import { ungradable } from './text.ts';

interface ToolCall {
  tool: string;
  args: Record<string, unknown>;
  denied: boolean;
}
interface ExpectedCall {
  tool: string;
  args: Record<string, unknown>;
}

/**
 * Tool calls in order, with `denied` from their result: the result with the same `id` when the
 * call has one, else the first unclaimed result of the same tool after the call.
 */
export function toolCalls(events: TrajectoryEvent[]): ToolCall[] {
  const claimed = new Set<number>();
  const out: ToolCall[] = [];
  events.forEach((e, i) => {
    if (e.type !== 'tool_call') return;
    let denied = false;
    for (let j = i + 1; j < events.length; j++) {
      const r = events[j];
      if (r.type !== 'tool_result' || claimed.has(j)) continue;
      const match = e.id !== undefined && r.id !== undefined ? r.id === e.id : r.tool === e.tool;
      if (!match) continue;
      claimed.add(j);
      denied = r.denied === true;
      break;
    }
    out.push({ tool: e.tool, args: e.args ?? {}, denied });
  });
  return out;
}

/** The expectation as expected calls; throws (→ ungradable) on anything else. */
function expectedCalls(expectation: unknown): ExpectedCall[] {
  if (!Array.isArray(expectation)) throw new Error('the expectation must be a list of expected calls [{tool, args}]');
  return expectation.map((x, i) => {
    if (typeof x === 'string' && x) return { tool: x, args: {} };
    const o = x as Record<string, unknown> | null;
    if (!o || typeof o !== 'object' || typeof o.tool !== 'string' || !o.tool)
      throw new Error(`expected call ${i} must be {tool, args} or a tool name`);
    const args = o.args ?? {};
    if (!args || typeof args !== 'object' || Array.isArray(args))
      throw new Error(`expected call ${i}: args must be an object`);
    return { tool: o.tool, args: args as Record<string, unknown> };
  });
}

const result = (score: number, reason: string, details: Record<string, unknown>): Verdict => ({
  score,
  passed: score >= 1,
  reason,
  details,
});
const fmt = (n: number) => n.toFixed(2);

function run(fn: (input: CheckInput) => Verdict) {
  return (input: CheckInput): Verdict => {
    try {
      return fn(input);
    } catch (err) {
      return ungradable((err as Error).message);
    }
  };
}

/** |executed names ∩ expected names| (multisets) / |expected|. */
export const toolSelection: CheckImpl = {
  needsInput: true,
  run: run(({ expectation, events }) => {
    const expected = expectedCalls(expectation);
    if (expected.length === 0) return ungradable('no expected tool calls');
    const pool = new Map<string, number>();
    for (const c of toolCalls(events)) if (!c.denied) pool.set(c.tool, (pool.get(c.tool) ?? 0) + 1);
    const missing: string[] = [];
    for (const e of expected) {
      const n = pool.get(e.tool) ?? 0;
      if (n > 0) pool.set(e.tool, n - 1);
      else missing.push(e.tool);
    }
    const hit = expected.length - missing.length;
    const reason = `${hit} of ${expected.length} expected tool calls made${missing.length ? `; missing ${missing.join(', ')}` : ''}`;
    return result(hit / expected.length, reason, { matched: hit, expected: expected.length, missing });
  }),
};

/**
 * Matching expected argument key–values / expected key–values, over expected calls whose tool was
 * executed. Each expected call is matched to the unused executed call of its tool that agrees on
 * the most arguments. No expected tool executed at all: ungradable (tool_selection fails it).
 */
export const argumentCorrectness: CheckImpl = {
  needsInput: true,
  run: run(({ expectation, events }) => {
    const expected = expectedCalls(expectation);
    const executed = toolCalls(events).filter((c) => !c.denied);
    const used = new Set<number>();
    let matched = 0;
    let total = 0;
    let considered = 0;
    const wrong: string[] = [];
    for (const e of expected) {
      const keys = Object.keys(e.args);
      let best = -1;
      let bestHits = -1;
      executed.forEach((c, i) => {
        if (used.has(i) || c.tool !== e.tool) return;
        const hits = keys.filter((k) => Object.hasOwn(c.args, k) && deepEqual(c.args[k], e.args[k])).length;
        if (hits > bestHits) [best, bestHits] = [i, hits];
      });
      if (best < 0) continue;
      used.add(best);
      considered++;
      total += keys.length;
      matched += bestHits;
      for (const k of keys)
        if (!(Object.hasOwn(executed[best].args, k) && deepEqual(executed[best].args[k], e.args[k])))
          wrong.push(`${e.tool}.${k}`);
    }
    // Not calling the tools at all is the worst argument score, not a way out of grading.
    if (considered === 0)
      return result(0, 'none of the expected tools was called', {
        matched: 0,
        expected: expected.reduce((n, e) => n + Object.keys(e.args).length, 0),
      });
    if (total === 0) return result(1, 'no expected arguments to compare', { matched: 0, expected: 0 });
    const reason = `${matched} of ${total} expected arguments right${wrong.length ? `; wrong or missing ${wrong.slice(0, 5).join(', ')}${wrong.length > 5 ? ', …' : ''}` : ''}`;
    return result(matched / total, reason, { matched, expected: total, wrong });
  }),
};

/**
 * min(1, optimal / actual tool calls), optimal = the expectation (a number) or |expected calls|.
 * Every call counts as a step, denied ones too. No call at all when some were needed scores 0:
 * a trajectory that never acted is incomplete, not efficient.
 */
export const stepEfficiency: CheckImpl = {
  needsInput: true,
  run: run(({ expectation, events }) => {
    const optimal = typeof expectation === 'number' ? expectation : expectedCalls(expectation).length;
    if (!Number.isFinite(optimal) || optimal < 0) throw new Error('the optimal number of steps must be a number >= 0');
    const actual = toolCalls(events).length;
    const details = { optimal, actual };
    if (actual === 0)
      return optimal === 0
        ? result(1, 'no tool calls, none needed', details)
        : result(0, `no tool calls, ${optimal} needed`, details);
    const score = Math.min(1, optimal / actual);
    return result(score, `${actual} tool calls for ${optimal} needed (${fmt(score)})`, details);
  }),
};

/**
 * Denials after which the agent made a further tool call and never repeated the identical denied
 * call (tool + args), over all denials. No denial: score 1, passed null (not applicable).
 */
export const denialRecovery: CheckImpl = {
  needsInput: false,
  run: run(({ events }) => {
    const calls = toolCalls(events);
    const denials = calls.map((c, i) => ({ c, i })).filter(({ c }) => c.denied);
    if (denials.length === 0) return { score: 1, passed: null, reason: 'no denied call: not applicable' };
    let recovered = 0;
    const repeated: string[] = [];
    const stopped: string[] = [];
    for (const { c, i } of denials) {
      const later = calls.slice(i + 1);
      const again = later.some((l) => l.tool === c.tool && deepEqual(l.args, c.args));
      if (again) repeated.push(c.tool);
      else if (later.length === 0) stopped.push(c.tool);
      else recovered++;
    }
    const notes = [
      repeated.length ? `repeated ${repeated.join(', ')}` : '',
      stopped.length ? `stopped after ${stopped.join(', ')}` : '',
    ].filter(Boolean);
    const reason = `recovered from ${recovered} of ${denials.length} denials${notes.length ? `; ${notes.join('; ')}` : ''}`;
    return result(recovered / denials.length, reason, { denials: denials.length, recovered, repeated, stopped });
  }),
};
