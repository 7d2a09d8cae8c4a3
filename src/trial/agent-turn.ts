// The agent's hands on its trial (ctx.sandbox, ctx.llm, ctx.record) hold for its turn only. When
// the agent phase ends (its last reply and close(), its timeout, its error) they are revoked, the
// agent's cooperation not needed: whatever its code still runs (a timer, an un-awaited promise)
// gets a rejection that did nothing. Calls still in flight are cancelled (a command is killed in
// the sandbox) and waited for, so grading never starts while the agent is still at work there.
import type { LlmClient } from '../agents/types.ts';
import type { ExecOptions, Sandbox } from '../sandbox/types.ts';
import type { NewEvent } from '../types.ts';

export class TurnOver extends Error {
  constructor(what: string) {
    super(`${what}: the agent's turn is over and its handle on the sandbox was revoked; nothing was done`);
    this.name = 'TurnOver';
  }
}

const METHODS = ['exec', 'readFile', 'writeFile', 'copyIn', 'copyOut', 'restart', 'health', 'transfer'] as const;
type Method = (typeof METHODS)[number];

/**
 * The one reason every ended turn aborts with: made once, because an Error captures a stack when
 * made and a run ends thousands of turns (its stack would name this module, not the agent).
 */
const TURN_ENDED = new TurnOver('a call still in flight when the turn ended');

export class AgentTurn {
  private readonly over = new AbortController();
  private readonly inFlight = new Set<Promise<unknown>>();
  /**
   * Aborts when the turn ends or the trial's own signal aborts (with its reason): what the agent is
   * handed and what its calls in flight are cancelled by. One listener, not AbortSignal.any, which
   * costs several objects and weak references a trial.
   */
  readonly signal = this.over.signal;
  private readonly follow = () => this.over.abort(this.trial?.reason);

  constructor(private readonly trial?: AbortSignal) {
    if (trial?.aborted) this.follow();
    else trial?.addEventListener('abort', this.follow, { once: true });
  }

  get ended(): boolean {
    return this.over.signal.aborted;
  }

  /** The sandbox as the agent may hold it: the same methods as `inner`, each refused once the turn is over. */
  sandbox<T extends Partial<Sandbox>>(inner: T): T {
    const handle: Partial<Record<Method | 'id' | 'image' | 'workdir' | 'host', unknown>> = {
      id: inner.id,
      image: inner.image,
      workdir: inner.workdir,
      host: inner.host,
    };
    for (const m of METHODS) {
      const fn = inner[m] as ((...args: unknown[]) => Promise<unknown>) | undefined;
      if (typeof fn === 'function')
        handle[m] = this.guard(`sandbox.${m}`, (...args: unknown[]) =>
          fn.apply(inner, m === 'exec' ? this.cancellable(args) : args),
        );
    }
    return Object.freeze(handle) as T;
  }

  /** The agent's model client: refused once the turn is over (its client is made with `signal`, so one in flight is aborted). */
  llm(client: LlmClient): LlmClient {
    const chat = this.guard('llm.chat', (req: Parameters<LlmClient['chat']>[0]) => client.chat(req));
    return Object.freeze({
      chat,
      get callsUsed() {
        return client.callsUsed;
      },
      get callsLeft() {
        return client.callsLeft;
      },
    });
  }

  /** ctx.record: an event the agent records after its turn is dropped (throwing from its timer would end the worker). */
  record<A extends [NewEvent, ...unknown[]]>(record: (...a: A) => void): (...a: A) => void {
    return (...a) => {
      if (!this.ended) record(...a);
    };
  }

  /** Ends the turn: nothing is let through any more, and what was in flight has settled. */
  async end(): Promise<void> {
    this.trial?.removeEventListener('abort', this.follow);
    if (!this.ended) this.over.abort(TURN_ENDED);
    if (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  private guard<A extends unknown[], R>(what: string, fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
    return (...args: A): Promise<R> => {
      if (this.ended) return Promise.reject(new TurnOver(what));
      let p: Promise<R>;
      try {
        p = Promise.resolve(fn(...args));
      } catch (err) {
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- what fn threw, passed on unchanged as its rejection
        return Promise.reject(err);
      }
      this.inFlight.add(p);
      const done = () => void this.inFlight.delete(p);
      p.then(done, done);
      return p;
    };
  }

  /** exec's arguments with the turn's signal added to the caller's: the command is killed when the turn ends. */
  private cancellable(args: unknown[]): unknown[] {
    const [cmd, opts] = args as [unknown, ExecOptions | undefined];
    const signal = opts?.signal ? AbortSignal.any([opts.signal, this.signal]) : this.signal;
    return [cmd, { ...opts, signal }];
  }
}
