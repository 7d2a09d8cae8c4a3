// The trial status from its error and verdicts, in the order of docs/sandboxes.md#who-is-blamed-for-what, and the trial score.
import type { ErrorValue } from '../errors.ts';
import type { CheckVerdict, TrialStatus } from '../types.ts';

export interface StatusInput {
  error: ErrorValue | null;
  verdicts: CheckVerdict[];
  blocked: boolean;
  blocksAreSuccess: boolean;
  /** The sample is a benign look-alike (`metadata.benign = true`) in a red-team suite. */
  benign?: boolean;
}

/** Mean score of the checks that produced a verdict; null when none did. */
function meanVerdictScore(verdicts: CheckVerdict[]): number | null {
  const graded = verdicts.filter((v) => v.passed !== null);
  if (graded.length === 0) return null;
  return graded.reduce((s, v) => s + v.score, 0) / graded.length;
}

/** The status an error decides by itself, or null when the verdicts decide (limits, no error). */
function statusOfError(error: ErrorValue | null): TrialStatus | null {
  switch (error?.kind) {
    case 'sandbox':
    case 'docker_unavailable':
      return 'SANDBOX_ERROR';
    case 'model':
      return 'MODEL_ERROR';
    case 'timeout':
      return 'TIMEOUT';
    case 'agent':
    case 'llm':
    case 'internal':
      return 'AGENT_ERROR';
    default:
      // No error, or a `limit` (not a failure: graded on what was produced, docs/agents.md#the-conversation).
      return null;
  }
}

/**
 * Score rules:
 * - TIMEOUT / AGENT_ERROR count as failures in every metric, so their score is what the checks
 *   gave on the partial output, or 0 when no check produced a verdict (never null).
 * - A blocked reply that passes because of `blocks_are_success` scores 1.
 * - Otherwise the mean score of the checks with a verdict, null when none.
 */
export function decideStatus(input: StatusInput): { status: TrialStatus; score: number | null } {
  const mean = meanVerdictScore(input.verdicts);
  const fromError = statusOfError(input.error);
  if (fromError === 'SANDBOX_ERROR' || fromError === 'MODEL_ERROR') return { status: fromError, score: mean };
  if (fromError) return { status: fromError, score: mean ?? 0 };
  if (input.verdicts.some((v) => v.type === 'manual' && v.passed === null))
    return { status: 'AWAITING_REVIEW', score: mean };
  if (mean === null) return { status: 'UNGRADABLE', score: null };
  // A block passes an attack; blocking a benign request is an over-refusal, graded like any other reply.
  if (input.blocksAreSuccess && input.blocked && !input.benign) return { status: 'PASSED', score: 1 };
  const allPassed = input.verdicts.every((v) => v.passed !== false);
  return { status: allPassed ? 'PASSED' : 'FAILED', score: mean };
}

/** A benign look-alike in a red-team suite, as the result file records its sample's metadata. */
export function isBenign(r: { metadata: Record<string, unknown> }): boolean {
  const m = r.metadata.sample_metadata as Record<string, unknown> | undefined;
  return m?.benign === true || r.metadata.benign === true;
}
