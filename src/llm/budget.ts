// The per-trial LLM-call budget (docs/agents.md#the-conversation). A call is counted when it is attempted, before any
// network, so the call past the limit never reaches the server. Retries of one call count once.
import { LlmBudgetExceeded } from '../errors.ts';

type BudgetKind = 'llm_calls' | 'user_llm_calls';

export class CallBudget {
  private used = 0;

  /** `limit` null: unlimited (the judge's model). */
  constructor(
    readonly limit: number | null,
    readonly kind: BudgetKind = 'llm_calls',
  ) {}

  get callsUsed(): number {
    return this.used;
  }

  get callsLeft(): number | null {
    return this.limit === null ? null : Math.max(0, this.limit - this.used);
  }

  /** Count one call, or throw `LlmBudgetExceeded(value, limit, kind)` if it would pass the limit. */
  take(): void {
    if (this.limit !== null && this.used >= this.limit) {
      throw new LlmBudgetExceeded(this.used + 1, this.limit, this.kind);
    }
    this.used++;
  }
}
