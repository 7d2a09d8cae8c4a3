// Grade one trial: run every check of the benchmark against what the trial produced. A check that
// throws becomes ungradable with the error as its reason; only a Docker failure (SandboxError)
// escapes, because the infrastructure, not the agent, failed. A check whose model endpoint failed
// (ModelEndpointError: a judge, embeddings) leaves its check ungradable and is handed back as `outage`:
// the trial is MODEL_ERROR (trial/grading.ts), `evaluate` stops (commands/evaluate.ts).
import type { CheckConfig } from '../config/schema.ts';
import type { CheckVerdict, Sample, Verdict } from '../types.ts';
import { describe, ModelEndpointError, SandboxError } from '../errors.ts';
import { getCheck } from './index.ts';
import type { GradeModels, TrialOutputs } from './types.ts';
import { ungradable } from './text.ts';

export interface GradeInput extends TrialOutputs, GradeModels {
  checks: CheckConfig[];
  /**
   * Run only the checks that need no sandbox. Checks that need one keep their verdict from
   * `previous` (same name) when given, else are ungradable; saved artifacts are kept untouched.
   */
  skipSandbox?: boolean;
  /**
   * Verdicts of an earlier grading (the result file's `checks`): kept for sandbox checks with
   * `skipSandbox`, and handed to each check as its own `previous` (a settled `manual` review).
   */
  previous?: CheckVerdict[];
}

interface GradeOutput {
  verdicts: CheckVerdict[];
  artifacts: Record<string, unknown>;
  /** The first check's model call whose endpoint failed (docs/agents.md#when-the-model-endpoint-fails). */
  outage?: ModelEndpointError;
}

/** The per-sample input of a check (docs/benchmarks.md#sample-fields): its own expectation, the sample's, or the literal. */
function expectationFor(check: CheckConfig, sample: Sample): unknown {
  return sample.expectations?.[check.name] ?? sample.expected ?? check.value;
}

/** What a check grades: the last reply, or every reply with `scope = "transcript"`. */
function responseFor(check: CheckConfig, replies: string[]): string {
  if (check.scope === 'transcript') return replies.join('\n');
  return replies.length > 0 ? replies[replies.length - 1] : '';
}

/** Keep verdicts inside the contract whatever a check (custom ones included) returned. */
export function normalizeVerdict(v: Verdict): Verdict {
  const passed = v.passed === true || v.passed === false ? v.passed : null;
  const raw = typeof v.score === 'number' && Number.isFinite(v.score) ? v.score : 0;
  const out: Verdict = {
    score: Math.min(1, Math.max(0, raw)),
    passed,
    reason: typeof v.reason === 'string' ? v.reason : '',
  };
  if (v.details !== undefined) out.details = v.details;
  return out;
}

export async function gradeTrial(input: GradeInput): Promise<GradeOutput> {
  const artifacts: Record<string, unknown> = { ...input.artifacts };
  const verdicts: CheckVerdict[] = [];
  let outage: ModelEndpointError | undefined;
  for (const check of input.checks) {
    const label = { name: check.name, type: check.type };
    const impl = getCheck(check.type);
    if (!impl) {
      verdicts.push({ ...label, ...ungradable(`unknown check type "${check.type}"`) });
      continue;
    }
    const kept = input.previous?.find((p) => p.name === check.name && p.type === check.type);
    if (input.skipSandbox && impl.needsSandbox) {
      verdicts.push(kept ? { ...kept } : { ...label, ...ungradable('needs the sandbox: not run') });
      continue;
    }
    try {
      if (input.signal?.aborted) throw new Error('grading aborted');
      const pending = impl.run({
        check,
        sample: input.sample,
        expectation: expectationFor(check, input.sample),
        response: responseFor(check, input.replies),
        replies: input.replies,
        events: input.events,
        finalState: input.finalState,
        blocked: input.blocked,
        sandbox: input.sandbox,
        modelPatch: input.modelPatch,
        artifacts,
        signal: input.signal,
        previous: kept,
        judge: input.judge,
        cache: input.cache,
        onEvent: input.onEvent,
        onCall: input.onCall,
        customChecks: input.customChecks,
      });
      // Most checks answer synchronously: awaiting only real promises spares a microtask turn per
      // verdict (measured: ~25% of re-grading time went to the await machinery).
      const verdict = pending instanceof Promise ? await pending : pending;
      verdicts.push({ ...label, ...normalizeVerdict(verdict) });
    } catch (err) {
      // Docker failing under a check is the infrastructure's fault: the trial is SANDBOX_ERROR (and retried).
      if (err instanceof SandboxError) throw err;
      if (err instanceof ModelEndpointError) outage ??= err;
      const why = err instanceof ModelEndpointError ? 'judge unavailable' : 'check error';
      verdicts.push({ ...label, ...ungradable(`${why}: ${describe(err)}`) });
    }
  }
  return { verdicts, artifacts, ...(outage ? { outage } : {}) };
}
