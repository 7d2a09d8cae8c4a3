// The judge's calls when `benchrig evaluate` re-grades a saved result (docs/reports.md#transcripts):
// recorded as the trial recorded them, then put in the result in place of the judge's earlier
// calls — their `llm_call` events and their transcript calls — and the result's tokens and cost
// counted again from its calls. A re-grading that calls no judge leaves the result's record as it was. What the checks said (a judge may echo its key) is scrubbed
// as the run scrubs a result (trial/scrub.ts).
import { scrubberFor, secretValues, type Scrubber } from '../config/scrub.ts';
import type { CallTranscript, NewEvent, TrajectoryEvent, TrialResult } from '../types.ts';
import { trialCost } from './cost.ts';
import { TranscriptStore } from './transcript.ts';

/** The prices a run gives its calls by role (trial/cost.ts), for a call that came without its own. */
type Prices = Parameters<typeof trialCost>[1];

type LlmCall = Extract<NewEvent, { type: 'llm_call' }>;

export class RegradeRecord {
  private readonly calls: Array<{ event: LlmCall; call?: CallTranscript }> = [];

  constructor(
    private readonly scrub: Scrubber,
    /** `[run] transcripts` is not "metadata": the judge's calls go in the transcript. */
    readonly transcripts: boolean,
    private readonly prices: Prices = {},
  ) {}

  /**
   * A new record a result, all scrubbed of the secrets in `configs` (the model configs the
   * re-grading uses) by one scrubber: its patterns are made once a run (making them cost more
   * than re-grading a `contains` check).
   */
  static maker(transcripts: boolean, prices: Prices, ...configs: unknown[]): () => RegradeRecord {
    const scrub = scrubberFor(secretValues(...configs));
    return () => new RegradeRecord(scrub, transcripts, prices);
  }

  onEvent = (e: NewEvent): void => {
    if (e.type === 'llm_call') this.calls.push({ event: e });
  };

  onCall = (e: NewEvent, call: CallTranscript): void => {
    if (e.type === 'llm_call') this.calls.push({ event: e, call });
  };

  /**
   * `r` with its verdicts and artifacts scrubbed and the judge's calls of this re-grading in place
   * of its earlier ones (none made, and no secret to scrub: `r` itself).
   */
  apply(graded: TrialResult): TrialResult {
    const s = this.scrub;
    const r = s.active ? { ...graded, checks: s.value(graded.checks), artifacts: s.value(graded.artifacts) } : graded;
    if (this.calls.length === 0) return r;
    const isJudge = (e: TrajectoryEvent) => e.type === 'llm_call' && e.role === 'judge';
    const events: TrajectoryEvent[] = r.events.filter((e) => !isJudge(e));
    const store = this.transcripts
      ? TranscriptStore.restore(r.transcript, (c) => c.source !== 'judge', this.scrub)
      : null;
    let step = r.events.reduce((n, e) => Math.max(n, e.step), 0);
    const ts = r.events.at(-1)?.ts ?? 0;
    for (const { event, call } of this.calls) {
      const { call: _c, preview: _p, ...plain } = event;
      const id = store && call ? store.add(call, plain.model, plain.latency_ms) : undefined;
      events.push(this.scrub.value({ ...plain, ...(id ? { call: id } : {}), step: ++step, ts }));
    }
    const transcript = store ? store.toJSON() : r.transcript;
    const { transcript: _old, ...rest } = r;
    const metadata = { ...r.metadata, tokens: tokensOf(events), ...trialCost(events, this.prices) };
    return { ...rest, events, metadata, ...(transcript ? { transcript } : {}) };
  }
}

/** Every call's tokens, agent, simulated user and judge alike, as the trial counted them (trial/recorder.ts). */
function tokensOf(events: readonly TrajectoryEvent[]): { input: number; output: number } {
  const tokens = { input: 0, output: 0 };
  for (const e of events)
    if (e.type === 'llm_call') {
      tokens.input += e.tokens.input;
      tokens.output += e.tokens.output;
    }
  return tokens;
}
