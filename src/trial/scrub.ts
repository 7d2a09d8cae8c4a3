// The run's secrets (every model key and the agent's secret options) as one scrubber, made once per
// run in each process: what a trial records and saves goes through it (config/scrub.ts).
import { scrubberFor, secretValues, type Scrubber } from '../config/scrub.ts';
import type { RunContext } from './types.ts';

const byRun = new WeakMap<RunContext, Scrubber>();

export function runScrubber(run: RunContext): Scrubber {
  let s = byRun.get(run);
  if (!s) byRun.set(run, (s = scrubberFor(secretValues(run.llm, run.agent.options))));
  return s;
}
