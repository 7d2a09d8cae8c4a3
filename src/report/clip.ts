// The bounds of the trial data a page embeds (report.html, the comparison page): a huge value keeps
// its head and tail, a long trajectory its first and last events, and the page says what it cut.

/** Character budget of the whole embedded trial data: a 10,000-trial page stays openable. */
const TOTAL_BUDGET = 48_000_000;
/** Fewest characters a trial's data is cut to, however many trials the page has. */
const MIN_PER_TRIAL = 16_000;
/** From this many trials on, clipFor gives one clip: every trial at MIN_PER_TRIAL. */
export const CLIP_SAME_FROM = Math.ceil(TOTAL_BUDGET / MIN_PER_TRIAL);

export interface Clip {
  /** Longest string kept whole; longer ones keep head and tail. */
  maxString: number;
  /** Most events kept per trial; the rest are replaced by one `cut` marker. */
  maxEvents: number;
  /** Characters of a trial's transcript messages (html-transcript.ts): past it, long messages are cut shorter. */
  maxTranscript: number;
}

export function clipFor(nTrials: number): Clip {
  const perTrial = Math.min(2_000_000, Math.max(MIN_PER_TRIAL, Math.floor(TOTAL_BUDGET / Math.max(1, nTrials))));
  return {
    maxString: Math.min(50_000, Math.max(600, Math.floor(perTrial / 8))),
    maxEvents: Math.min(2000, Math.max(40, Math.floor(perTrial / 400))),
    maxTranscript: Math.floor(perTrial / 2),
  };
}

export interface CutCounter {
  chars: number;
  events: number;
}

export function clipString(s: string, max: number, cut: CutCounter): string {
  if (s.length <= max) return s;
  const head = Math.ceil(max * 0.6);
  const tail = max - head;
  cut.chars += s.length - max;
  return `${s.slice(0, head)}\n… [${s.length - max} characters cut] …\n${s.slice(s.length - tail)}`;
}

/** Whether clipValue would change anything in `v`: most trials have nothing to clip, and copying each of their values cost the report's main thread ~10 µs a trial. */
function needsClip(v: unknown, max: number, depth: number): boolean {
  if (typeof v === 'string') return v.length > max;
  if (v === null || typeof v !== 'object') return false;
  if (depth > 12) return true;
  if (Array.isArray(v)) {
    for (const x of v) if (needsClip(x, max, depth + 1)) return true;
    return false;
  }
  for (const k in v)
    if (Object.hasOwn(v, k) && needsClip((v as Record<string, unknown>)[k], max, depth + 1)) return true;
  return false;
}

export function clipValue(v: unknown, clip: Clip, cut: CutCounter, depth = 0): unknown {
  if (!needsClip(v, clip.maxString, depth)) return v;
  if (typeof v === 'string') return clipString(v, clip.maxString, cut);
  if (v === null || typeof v !== 'object') return v;
  if (depth > 12) return clipString(JSON.stringify(v), clip.maxString, cut);
  if (Array.isArray(v)) return v.map((x) => clipValue(x, clip, cut, depth + 1));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clipValue(x, clip, cut, depth + 1)]));
}
