// `answer_relevancy` (docs/checks.md#retrieval): how relevant the reply is to the sample's input.
// By default the `similarity` engine between the two (TF-IDF offline, or an embeddings endpoint);
// with `judge = true`, a judge model scores one criterion under llm_judge's rules (its scale and
// pass score; a judge that cannot answer is ungradable, a reply with no JSON object fails).
// An empty reply fails without asking anything.
import type { CheckConfig } from '../config/schema.ts';
import { ModelEndpointError } from '../errors.ts';
import type { Verdict } from '../types.ts';
import { askJudge, judgeSpec, verdictFromReply, type JudgeSpec } from './llm-judge.ts';
import { backendOf, embed } from './similarity.ts';
import { optionalBoolean, optionalNumber, ungradable } from './text.ts';
import { denseCosine, tfidfSimilarities } from './tfidf.ts';
import type { CheckImpl, CheckInput } from './types.ts';

/** TF-IDF gives an answer that takes up the question's words about 0.2–0.6, an unrelated one near 0. */
const DEFAULT_RELEVANCY_THRESHOLD = 0.2;

const CRITERION =
  'How relevant is the response to the question: does it address what was asked, ' +
  'without drifting to other matters? Judge relevance only, not correctness.';

const JUDGE_ONLY = ['score_range', 'thresholds'];
const ENGINE_ONLY = ['threshold', 'backend'];

function spec(check: CheckConfig): JudgeSpec {
  return judgeSpec({ ...check, criteria: { relevancy: { description: CRITERION } } });
}

function validate(check: CheckConfig): void {
  const where = `check "${check.name}"`;
  if (check.criteria !== undefined)
    throw new Error(`${where}: answer_relevancy has its own criterion; remove criteria`);
  if (optionalBoolean(check, 'judge')) {
    for (const key of ENGINE_ONLY)
      if (check[key] !== undefined)
        throw new Error(
          `${where}: ${key} does not apply with judge = true (the judge passes at thresholds.pass_score)`,
        );
    spec(check);
    return;
  }
  for (const key of JUDGE_ONLY)
    if (check[key] !== undefined) throw new Error(`${where}: ${key} applies with judge = true only`);
  backendOf(check);
  if ((optionalNumber(check, 'threshold') ?? 0) > 1) throw new Error(`${where}: threshold must be between 0 and 1`);
  if (check.model !== undefined && typeof check.model !== 'string') throw new Error(`${where}: model must be a string`);
}

async function byJudge(input: CheckInput): Promise<Verdict> {
  const s = spec(input.check);
  if (!input.judge) return ungradable('no judge model configured ([judge.llm])');
  let reply: string;
  try {
    reply = await askJudge(input, input.judge, s, undefined);
  } catch (err) {
    if (err instanceof ModelEndpointError) throw err; // ungradable too, and the trial is told (grade.ts)
    return ungradable(`judge unavailable: ${(err as Error)?.message ?? String(err)}`);
  }
  return verdictFromReply(s, reply);
}

async function byEngine(input: CheckInput): Promise<Verdict> {
  const { check, response } = input;
  const question = input.sample.input;
  const threshold = optionalNumber(check, 'threshold') ?? DEFAULT_RELEVANCY_THRESHOLD;
  const backend = backendOf(check);
  let similarity: number;
  if (backend === 'tfidf') similarity = tfidfSimilarities(response, [question])[0];
  else {
    try {
      const [r, q] = await embed(input, [response, question]);
      similarity = denseCosine(r, q);
    } catch (err) {
      if (err instanceof ModelEndpointError) throw err; // ungradable too, and the trial is told (grade.ts)
      return ungradable((err as Error).message);
    }
  }
  const score = Math.max(0, similarity);
  const passed = score >= threshold;
  return {
    score,
    passed,
    reason: `relevancy to the input ${score.toFixed(2)} ${passed ? '>=' : '<'} ${threshold} (${backend})`,
    details: { similarity: score, threshold, backend },
  };
}

export const answerRelevancy: CheckImpl = {
  needsInput: false,
  validate,
  async run(input): Promise<Verdict> {
    if (input.response.trim() === '')
      return { score: 0, passed: false, reason: 'the reply is empty', details: { similarity: 0 } };
    return optionalBoolean(input.check, 'judge') ? byJudge(input) : byEngine(input);
  },
};
