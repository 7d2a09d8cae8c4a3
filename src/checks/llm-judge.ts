// `llm_judge` (docs/checks.md#llm_judge): a model scores the response on each criterion and the
// harness, not the judge, works out the verdict from the scores (verdictFromReply). The judge's calls
// count against no budget and are recorded as `llm_call` events, role 'judge'.
import type { CheckImpl, CheckInput } from './types.ts';
import type { CheckConfig, LlmConfig } from '../config/schema.ts';
import type { Verdict } from '../types.ts';
import { ModelEndpointError } from '../errors.ts';
import { firstJsonObject } from './json-field.ts';
import { asText, excerpt, ungradable } from './text.ts';

export interface Criterion {
  name: string;
  description: string;
  weight: number;
  critical_min?: number;
}

export interface JudgeSpec {
  criteria: Criterion[];
  range: [number, number];
  passScore: number;
  model?: string;
}

const CRITERION_KEYS = new Set(['description', 'weight', 'critical_min']);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const fmt = (n: number) => String(Number(n.toFixed(4)));

/** The check's table as a judge spec; throws a message naming the key when it is wrong (load time). */
export function judgeSpec(check: CheckConfig): JudgeSpec {
  const where = `check "${check.name}"`;
  const r = check.score_range ?? [1, 5];
  if (!Array.isArray(r) || r.length !== 2 || !isNum(r[0]) || !isNum(r[1]) || r[0] >= r[1])
    throw new Error(`${where}: score_range must be [min, max] with min < max, like [1, 5]`);
  const range: [number, number] = [r[0], r[1]];
  const inRange = (n: number) => n >= range[0] && n <= range[1];

  const raw = check.criteria;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw) || Object.keys(raw).length === 0)
    throw new Error(
      `${where}: criteria must name at least one criterion ([checks.criteria.<name>] with a description)`,
    );
  const criteria = Object.entries(raw as Record<string, unknown>).map(([name, c]): Criterion => {
    const at = `${where}: criteria.${name}`;
    if (!c || typeof c !== 'object' || Array.isArray(c)) throw new Error(`${at} must be a table with a description`);
    const t = c as Record<string, unknown>;
    const unknown = Object.keys(t).filter((k) => !CRITERION_KEYS.has(k));
    if (unknown.length)
      throw new Error(`${at}: unknown key ${unknown.join(', ')} (allowed: description, weight, critical_min)`);
    if (typeof t.description !== 'string' || t.description.trim() === '')
      throw new Error(`${at}.description must be a non-empty string`);
    const weight = t.weight ?? 1;
    if (!isNum(weight) || weight < 0) throw new Error(`${at}.weight must be a number >= 0`);
    if (t.critical_min !== undefined && (!isNum(t.critical_min) || !inRange(t.critical_min)))
      throw new Error(`${at}.critical_min must be a number within score_range [${range.join(', ')}]`);
    return {
      name,
      description: t.description,
      weight,
      ...(t.critical_min !== undefined ? { critical_min: t.critical_min } : {}),
    };
  });
  if (criteria.every((c) => c.weight === 0))
    throw new Error(
      `${where}: every criterion has weight 0, so there is no average to pass; give at least one a weight > 0`,
    );

  const th = check.thresholds ?? {};
  if (!th || typeof th !== 'object' || Array.isArray(th))
    throw new Error(`${where}: thresholds must be a table like { pass_score = 4 }`);
  const extra = Object.keys(th).filter((k) => k !== 'pass_score');
  if (extra.length) throw new Error(`${where}: thresholds: unknown key ${extra.join(', ')} (allowed: pass_score)`);
  const ps = (th as Record<string, unknown>).pass_score;
  if (ps !== undefined && (!isNum(ps) || !inRange(ps)))
    throw new Error(`${where}: thresholds.pass_score must be a number within score_range [${range.join(', ')}]`);
  const passScore = isNum(ps) ? ps : range[0] + 0.75 * (range[1] - range[0]);

  if (check.model !== undefined && typeof check.model !== 'string') throw new Error(`${where}: model must be a string`);
  return { criteria, range, passScore, ...(typeof check.model === 'string' ? { model: check.model } : {}) };
}

/** The messages sent to the judge: the question, the response, the rubric and every criterion. */
function judgePrompt(spec: JudgeSpec, question: string, response: string, rubric: string | undefined) {
  const [lo, hi] = spec.range;
  const shape = `{${spec.criteria.map((c) => `${JSON.stringify(c.name)}: {"score": <number>, "reasoning": "<text>"}`).join(', ')}}`;
  const system =
    `You are an impartial judge grading an AI assistant's response. Score it on every criterion below ` +
    `with a number from ${lo} (worst) to ${hi} (best), and give a short reasoning for each score. ` +
    `Answer with exactly one JSON object and nothing else, mapping each criterion name to ` +
    `{"score": <number>, "reasoning": "<text>"}.`;
  const parts = [`## Question\n${question}`, `## Response\n${response}`];
  if (rubric !== undefined && rubric.trim() !== '') parts.push(`## Rubric\n${rubric}`);
  parts.push(`## Criteria\n${spec.criteria.map((c) => `- ${c.name}: ${c.description}`).join('\n')}`);
  parts.push(`Reply with one JSON object of this shape:\n${shape}`);
  return [
    { role: 'system' as const, content: system },
    { role: 'user' as const, content: parts.join('\n\n') },
  ];
}

/** A criterion's score as the judge wrote it: `{score: n}`, or a bare number; numeric strings count. */
function rawScore(entry: unknown): number | undefined | null {
  const v =
    entry && typeof entry === 'object' && !Array.isArray(entry) ? (entry as Record<string, unknown>).score : entry;
  if (v === undefined || v === null) return undefined; // missing
  if (isNum(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null; // non-numeric
}

const reasoningOf = (entry: unknown) =>
  entry && typeof entry === 'object' && typeof (entry as Record<string, unknown>).reasoning === 'string'
    ? ((entry as Record<string, unknown>).reasoning as string)
    : '';

/**
 * A judge whose reply has no JSON object at all fails the reply under grading: that reply is in the
 * judge's prompt and may be what steered it off its format. A JSON answer that leaves out a
 * criterion's score, or gives one that is not a number, is ungradable: that criterion has no score
 * to work a verdict out from (verdictFromReply).
 */
const offFormat = (reason: string, reply: string): Verdict => ({
  score: 0,
  passed: false,
  reason: `${reason} (graded as a failure)`,
  details: { judge_reply: reply },
});

/**
 * The verdict from the judge's reply text (pure: the model call is elsewhere):
 * - the weighted average Σw·s / Σw over criteria with weight > 0 (weights default to 1, relative);
 *   a weight-0 criterion is scored and shown but does not count (all 0 is refused at load);
 * - passes when the average ≥ `thresholds.pass_score` (default: three quarters up the scale);
 * - a criterion below its `critical_min` fails the check whatever the average;
 * - scores outside `score_range` are clamped first; a missing or non-numeric score is ungradable
 *   (so is a judge that fails after retries: checks/grade.ts); a reply with no JSON object fails.
 */
export function verdictFromReply(spec: JudgeSpec, reply: string): Verdict {
  const obj = firstJsonObject(reply);
  if (!obj) return offFormat(`the judge's reply has no JSON object: "${excerpt(reply, 80)}"`, reply);
  const missing: string[] = [];
  const nonNumeric: string[] = [];
  const raw: Record<string, number> = {};
  for (const c of spec.criteria) {
    const s = rawScore(obj[c.name]);
    if (s === undefined) missing.push(c.name);
    else if (s === null) nonNumeric.push(c.name);
    else raw[c.name] = s;
  }
  if (missing.length || nonNumeric.length) {
    const why = [
      missing.length ? `no score for ${missing.join(', ')}` : '',
      nonNumeric.length ? `a non-numeric score for ${nonNumeric.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join('; ');
    return ungradable(`the judge gave ${why}`, { judge_reply: reply });
  }

  const [lo, hi] = spec.range;
  const scores: Record<string, number> = {};
  const reasoning: Record<string, string> = {};
  const clamped: string[] = [];
  let sum = 0;
  let weights = 0;
  for (const c of spec.criteria) {
    const s = Math.min(hi, Math.max(lo, raw[c.name]));
    if (s !== raw[c.name]) clamped.push(c.name);
    scores[c.name] = s;
    reasoning[c.name] = reasoningOf(obj[c.name]);
    sum += c.weight * s;
    weights += c.weight;
  }
  const weighted = sum / weights; // weights > 0: refused at load otherwise
  const brokenFloors = spec.criteria
    .filter((c) => c.critical_min !== undefined && scores[c.name] < c.critical_min)
    .map((c) => c.name);
  const passed = weighted >= spec.passScore && brokenFloors.length === 0;

  const head = `scored ${weighted.toFixed(2)} of ${fmt(hi)}, needs ${fmt(spec.passScore)}${brokenFloors.length ? `; below the floor on ${brokenFloors.join(', ')}` : ''}`;
  const why = spec.criteria
    .map((c) => `${c.name} ${fmt(scores[c.name])}${reasoning[c.name] ? `: ${excerpt(reasoning[c.name], 200)}` : ''}`)
    .join('; ');
  return {
    score: (weighted - lo) / (hi - lo),
    passed,
    reason: `${head}. ${why}`,
    details: {
      raw_scores: raw,
      scores,
      reasoning,
      weights: Object.fromEntries(spec.criteria.map((c) => [c.name, c.weight])),
      weighted_score: weighted,
      pass_score: spec.passScore,
      score_range: [lo, hi],
      broken_floors: brokenFloors,
      ...(clamped.length ? { clamped } : {}),
    },
  };
}

/** The judge's reply to the prompt of `spec` on the trial's question and response (`rubric`: the sample's, if any). */
export async function askJudge(
  input: CheckInput,
  judge: LlmConfig,
  spec: JudgeSpec,
  rubric: string | undefined,
): Promise<string> {
  const config = { ...judge, ...(spec.model ? { model: spec.model } : {}) };
  // Loaded on first use: the OpenAI SDK costs the main process ~10 MB that most runs never need there.
  const { createLlmClient } = await import('../llm/client.ts');
  const client = createLlmClient({
    config,
    role: 'judge',
    budget: null,
    onEvent: input.onEvent,
    onCall: input.onCall,
    signal: input.signal,
    cache: input.cache,
  });
  try {
    const res = await client.chat({ messages: judgePrompt(spec, input.sample.input, input.response, rubric) });
    return res.message.content ?? '';
  } catch (err) {
    const outage = client.outageIn(err);
    throw outage ? new ModelEndpointError(outage.message) : err;
  }
}

export const llmJudge: CheckImpl = {
  needsInput: false,
  validate(check) {
    judgeSpec(check);
  },
  async run(input): Promise<Verdict> {
    const spec = judgeSpec(input.check);
    if (!input.judge) return ungradable('no judge model configured ([judge.llm])');
    let reply: string;
    try {
      const rubric =
        input.expectation === undefined || input.expectation === null ? undefined : asText(input.expectation);
      reply = await askJudge(input, input.judge, spec, rubric);
    } catch (err) {
      if (err instanceof ModelEndpointError) throw err; // ungradable too, and the trial is told (grade.ts)
      return ungradable(`judge unavailable: ${(err as Error)?.message ?? String(err)}`);
    }
    return verdictFromReply(spec, reply);
  },
};
