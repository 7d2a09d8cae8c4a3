// Phase 6 of a trial (docs/running.md): with the agent done, isolate the sandbox from it and copy the tests
// in (isolation.ts), let the benchmark's `collect` hook add final state and artifacts, and run
// every check while the sandbox is alive.
import { join } from 'node:path';
import { gradeTrial } from '../checks/grade.ts';
import type { CheckVerdict } from '../types.ts';
import type { AgentPhaseOutcome } from './agent-phase.ts';
import { confirmSidecars } from './blame.ts';
import { confirmHost, gradesInSandbox, isolateForGrading } from './isolation.ts';
import { sidecarsOf } from './sidecars.ts';
import { keepFolders } from './keep.ts';
import { formatsGrading } from '../formats/index.ts';
import { bounded, timed, type Session } from './session.ts';

export interface Graded {
  verdicts: CheckVerdict[];
  artifacts: Record<string, unknown>;
  finalState: Record<string, unknown>;
  /** What the result file carries for the benchmark's format (formats/types.ts `resultFields`). */
  fields?: Record<string, unknown>;
}

export const NOT_GRADED: Graded = { verdicts: [], artifacts: {}, finalState: {} };

export async function collectAndGrade(s: Session, outcome: AgentPhaseOutcome | undefined): Promise<Graded> {
  const { run, input, recorder } = s;
  const span = s.spans.open('grade');
  s.phase = 'grading';
  try {
    return await timed(s, 'grading', async () => {
      // A trusted agent that hands its patch over (predictions): graded as it is, never diffed.
      if (outcome?.modelPatch !== undefined)
        s.modelPatch =
          outcome.modelPatch === null
            ? { text: '', truncated: false, unsubmitted: true }
            : { text: outcome.modelPatch, truncated: false };
      const sandbox = await isolateForGrading(s);
      const replies = outcome?.replies ?? [];
      const collected = await bounded(
        s,
        'collect',
        s.hooks.collect?.({
          sample: input.sample,
          sandbox,
          sessionId: s.sessionId,
          runDir: run.runDir,
          benchmarkDir: run.benchmark.dir,
          replies,
        }),
      );
      const finalState = { ...(outcome?.state ?? {}), ...(collected?.final_state ?? {}) };
      const { verdicts, artifacts, outage } = await gradeTrial({
        checks: run.benchmark.checks,
        sample: input.sample,
        replies,
        events: recorder.events,
        finalState,
        blocked: outcome?.blocked ?? false,
        sandbox,
        modelPatch: s.modelPatch,
        artifacts: { ...(collected?.artifacts ?? {}) },
        signal: s.opts.signal,
        judge: run.llm.judge,
        cache: run.llmCache,
        onEvent: recorder.record,
        onCall: recorder.transcript ? recorder.recordCall : undefined,
        customChecks: s.hooks.checks,
      });
      // The format's own files of the trial and fields of its result (formats/types.ts).
      const formats = formatsGrading(run.benchmark.checks);
      const graded = { sampleId: input.sample.id, modelPatch: s.modelPatch, verdicts, artifacts };
      for (const f of formats) await f.trialFiles?.(join(run.runDir, 'trials', input.taskId), graded);
      const fields = Object.assign({}, ...formats.map((f) => f.resultFields?.(graded) ?? {})) as Record<
        string,
        unknown
      >;
      for (const v of verdicts)
        recorder.record({ type: 'check', name: v.name, passed: v.passed, score: v.score, reason: v.reason });
      const { kept, skipped } = await keepFolders(s, sandbox);
      if (Object.keys(kept).length) Object.assign(artifacts, { kept });
      if (Object.keys(skipped).length) Object.assign(artifacts, { kept_skipped: skipped });
      // Commands its daemon cut short (a host going away) read as failed checks: not verdicts.
      if (sandbox && gradesInSandbox(s)) await confirmHost(sandbox, 'its checks ran on a sandbox that went away');
      // The services beside main: taken away (infrastructure) or stopped by the agent (graded as left).
      await confirmSidecars(sidecarsOf(s), (line) => recorder.log('warn', line));
      // A check whose model endpoint failed has no verdict for infrastructure's reasons: the trial is
      // MODEL_ERROR whatever the other checks say, never passed without it (docs/checks.md#failed-or-ungradable).
      if (outage) throw outage;
      return { verdicts, artifacts, finalState, ...(Object.keys(fields).length ? { fields } : {}) };
    });
  } catch (err) {
    span.end(err);
    throw err;
  } finally {
    span.end();
  }
}
