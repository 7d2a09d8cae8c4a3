// Check types as a typed map from name to implementation (no side-effect registration).
// Adding a check type is one import and one line here.
import type { CheckImpl } from './types.ts';
import { exact } from './exact.ts';
import { contains } from './contains.ts';
import { regex } from './regex.ts';
import { numeric } from './numeric.ts';
import { sandboxTest } from './sandbox-test.ts';
import { stateCheck } from './state.ts';
import { jsonField } from './json-field.ts';
import { similarity } from './similarity.ts';
import { llmJudge } from './llm-judge.ts';
import { argumentCorrectness, denialRecovery, stepEfficiency, toolSelection } from './trajectory.ts';
import { manual } from './manual.ts';
import { custom } from './custom.ts';
import { reward } from './reward.ts';
import { hitRate, reciprocalRank } from './rank.ts';
import { answerRelevancy } from './answer-relevancy.ts';
import { swebench } from './swebench.ts';

export const CHECKS = {
  exact,
  contains,
  regex,
  numeric,
  sandbox_test: sandboxTest,
  state: stateCheck,
  json_field: jsonField,
  similarity,
  llm_judge: llmJudge,
  tool_selection: toolSelection,
  argument_correctness: argumentCorrectness,
  step_efficiency: stepEfficiency,
  denial_recovery: denialRecovery,
  manual,
  custom,
  reward,
  hit_rate: hitRate,
  reciprocal_rank: reciprocalRank,
  answer_relevancy: answerRelevancy,
  swebench,
} satisfies Record<string, CheckImpl>;

/** The implementation of a check type, or undefined for an unknown type. */
export function getCheck(type: string): CheckImpl | undefined {
  return Object.hasOwn(CHECKS, type) ? (CHECKS as Record<string, CheckImpl>)[type] : undefined;
}
