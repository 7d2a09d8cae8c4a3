// Per-trial tokens (docs/agents.md#the-model-gateway): the sandbox's API key. Random, unguessable, and valid only while the
// trial is registered; the gateway maps a request to its trial by it and by nothing else.
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { LlmBudgetExceeded } from '../errors.ts';
import type { GatewayTrial, GatewayUsage } from './types.ts';

export interface TrialEntry {
  trial: GatewayTrial;
  usage: GatewayUsage;
  /** Budget slots taken (a call is counted before it is forwarded, as in src/llm/budget.ts). */
  taken: number;
  budgetReported: boolean;
  /** Requests of this trial being answered, and who waits for none to be. */
  active: number;
  idle: (() => void)[];
}

const PREFIX = 'brg-';

export class TokenRegistry {
  private readonly byToken = new Map<string, TrialEntry>();

  register(trial: GatewayTrial): { token: string; entry: TrialEntry } {
    const token = PREFIX + randomBytes(24).toString('base64url');
    const entry: TrialEntry = {
      trial,
      usage: { calls: 0, tokens: { input: 0, output: 0 } },
      taken: 0,
      budgetReported: false,
      active: 0,
      idle: [],
    };
    this.byToken.set(token, entry);
    return { token, entry };
  }

  unregister(token: string): void {
    this.byToken.delete(token);
  }

  get size(): number {
    return this.byToken.size;
  }

  /** The trial of a request: `Authorization: Bearer T` (OpenAI) or `x-api-key: T` (Anthropic). */
  lookup(headers: IncomingHttpHeaders): TrialEntry | null {
    const token = presentedToken(headers);
    if (!token || !token.startsWith(PREFIX)) return null;
    return this.byToken.get(token) ?? null;
  }
}

function presentedToken(headers: IncomingHttpHeaders): string | null {
  const auth = headers.authorization;
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(.+)$/i.exec(auth.trim());
    if (m) return m[1].trim();
  }
  const key = headers['x-api-key'];
  if (typeof key === 'string' && key.trim()) return key.trim();
  return null;
}

/** The refusal of a model request when the trial's budget is spent (reported to the trial once), or null. */
export function budgetRefusal(entry: TrialEntry): LlmBudgetExceeded | null {
  const limit = entry.trial.budget;
  if (limit === null || entry.taken < limit) return null;
  const err = new LlmBudgetExceeded(entry.taken + 1, limit, 'llm_calls');
  if (!entry.budgetReported) {
    entry.budgetReported = true;
    entry.trial.onBudgetExhausted?.(err);
  }
  return err;
}

/**
 * Take `slots` budget slots (a Chat Completions call with `n` completions takes n), or return the
 * refusal. Fewer slots left than asked for, but some: refused, not reported (a smaller `n` may pass).
 */
export function takeBudget(entry: TrialEntry, slots = 1): LlmBudgetExceeded | null {
  const spent = budgetRefusal(entry);
  if (spent) return spent;
  const limit = entry.trial.budget;
  if (limit !== null && entry.taken + slots > limit)
    return new LlmBudgetExceeded(entry.taken + slots, limit, 'llm_calls');
  entry.taken += slots;
  return null;
}

/** The budget slots a request's `n` (completions asked for) takes, or why it is refused. */
export function slotsOf(n: unknown): number | string {
  if (n === undefined || n === null) return 1;
  if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 1) return n;
  return `benchrig gateway: \`n\` must be a whole number of completions, 1 or more (got ${JSON.stringify(n)}); each completion is one call of the trial's LLM-call budget`;
}
