// `manual`: never passes by itself (docs/checks.md#manual). Until a person settles it with `benchrig review`,
// its verdict is `passed: null` with `details.awaiting_review`, which makes the trial
// AWAITING_REVIEW (status.ts). The review is stored on this verdict in the result file as
// `details.review = {passed, reason, at, by?}`; a re-grade receives the saved verdict as
// `previous` and keeps the settled review instead of reopening it.
import type { CheckImpl } from './types.ts';
import type { CheckVerdict, Verdict } from '../types.ts';

export interface Review {
  passed: boolean;
  reason: string;
  at: string;
  by?: string;
}

/** The settled review stored on a saved verdict, or null. */
function settledReview(previous: CheckVerdict | undefined): Review | null {
  const r = previous?.details?.review as Partial<Review> | undefined;
  if (!r || typeof r !== 'object' || typeof r.passed !== 'boolean') return null;
  return {
    passed: r.passed,
    reason: typeof r.reason === 'string' ? r.reason : '',
    at: typeof r.at === 'string' ? r.at : '',
    ...(typeof r.by === 'string' ? { by: r.by } : {}),
  };
}

/** The verdict a settled review gives (also what `benchrig review` writes). */
export function reviewedVerdict(review: Review): Verdict {
  const who = review.by ? ` by ${review.by}` : '';
  return {
    score: review.passed ? 1 : 0,
    passed: review.passed,
    reason: `reviewed${who}: ${review.passed ? 'pass' : 'fail'}${review.reason ? ` — ${review.reason}` : ''}`,
    details: { review },
  };
}

export const manual: CheckImpl = {
  needsInput: false,
  run({ previous }): Verdict {
    const review = settledReview(previous);
    if (review) return reviewedVerdict(review);
    return { score: 0, passed: null, reason: 'awaiting review (benchrig review)', details: { awaiting_review: true } };
  },
};
