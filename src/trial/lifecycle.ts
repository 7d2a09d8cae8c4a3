// One trial, start to finish (docs/running.md): a function of serialisable input returning a serialisable
// result, so that any pool can run it unchanged. Each phase is a short function of the session;
// cleanup is in `finally` and cannot be skipped; the result file is written atomically.
import { appendFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { type ErrorValue, LlmError, ModelEndpointError, SandboxError, toErrorValue } from '../errors.ts';
import { blame, blameAgentError } from './blame.ts';
import { sidecarsOf } from './sidecars.ts';
import { trialTimeoutOf } from './per-trial.ts';
import { writeJsonAtomic } from '../report/write.ts';
import { isSharded, shardOf } from '../report/result-layout.ts';
import type { TrialResult } from '../types.ts';
import { runAgentPhase, type AgentPhaseOutcome } from './agent-phase.ts';
import { trialCost } from './cost.ts';
import { diskLimitOf, withinDiskLimit } from './disk-watch.ts';
import { cleanUp, startEnvironment } from './environment.ts';
import { collectAndGrade, NOT_GRADED, type Graded } from './grading.ts';
import { resultOf } from './result.ts';
import { runScrubber } from './scrub.ts';
import { openSession, secondsSince, timed, TrialTimeout, type Session, type TrialOptions } from './session.ts';
import type { Sandbox } from '../sandbox/types.ts';
import type { RunContext, TrialInput } from './types.ts';

export { TrialTimeout };

export async function runTrial(run: RunContext, input: TrialInput, opts: TrialOptions = {}): Promise<TrialResult> {
  const s = await openSession(run, input, opts); // 1–2: the task and its session
  let error: ErrorValue | null = null;
  let outcome: AgentPhaseOutcome | undefined;
  let graded: Graded = NOT_GRADED;
  try {
    try {
      await startEnvironment(s); // 3: the trial's clock starts once the sandbox is ready
      outcome = await converseUnderTimeout(s); // 4–5: the agent, loaded here, and the conversation
    } catch (err) {
      error = await classify(s, err);
    }
    // 6: collect and grade, unless interrupted (not saved), the sandbox never came up or the model endpoint failed
    if (error?.kind !== 'interrupted' && error?.kind !== 'sandbox' && error?.kind !== 'model') {
      try {
        graded = await collectAndGrade(s, outcome);
      } catch (err) {
        error = await afterGrading(s, error, err);
      }
      // Stopped while its checks ran (Ctrl-C, or the pool's deadline): their verdicts are not the
      // trial's (a check cut short reads as ungradable), so the trial is what stopped it: an
      // interrupted one is not saved and --resume runs it again.
      if (!error && s.abort.signal.aborted) error = await classify(s, s.abort.signal.reason);
    }
  } finally {
    await cleanUp(s, error); // 8: always
    s.dispose();
  }
  // The reply, check reasons and states may quote what the model said: no secret in the result.
  const result = runScrubber(run).value(
    resultOf(run, input, {
      ...graded,
      sessionId: s.sessionId,
      replies: outcome?.replies ?? [],
      blocked: outcome?.blocked ?? false,
      stopReason: outcome?.stopReason,
      events: s.recorder.events,
      transcript: s.recorder.transcript?.toJSON(),
      metadata: {
        llm_calls: s.recorder.llmCalls,
        user_llm_calls: s.recorder.userLlmCalls,
        tokens: { ...s.recorder.tokens },
        ...trialCost(s.recorder.events, {
          agent: run.llm.agent.price,
          user: run.llm.user.price,
          judge: run.llm.judge.price,
        }),
        tools_used: { ...s.recorder.toolsUsed },
        timings_s: s.timings,
        sandbox: s.sandbox ? sandboxOf(s, s.sandbox, run.keepSandbox && error?.kind !== 'interrupted') : null,
        limit: outcome?.limit ?? diskLimitOf(s),
      },
      error,
      traceId: s.spans.traceId,
      startedAt: s.startedAt,
      executionTimeS: secondsSince(s.t0),
    }),
  );
  s.spans.end(result);
  if (error?.kind !== 'interrupted') await save(run, result, s.logLines); // 7
  return result;
}

/** What the result says of the trial's environment: main, and the services, network and volumes beside it. */
function sandboxOf(s: Session, main: Sandbox, kept: boolean): NonNullable<TrialResult['metadata']['sandbox']> {
  const env = s.environment;
  const services = Object.entries(env?.services ?? {});
  return {
    image: main.image,
    container: main.id,
    ...(main.host ? { host: main.host } : {}),
    kept,
    ...(kept && s.keptLines ? { kept_lines: s.keptLines } : {}),
    ...(services.length ? { services: Object.fromEntries(services.map(([name, box]) => [name, box.id])) } : {}),
    ...(env?.network ? { network: env.network.name } : {}),
    ...(env?.volumes?.length ? { volumes: env.volumes.map((v) => v.source) } : {}),
  };
}

/** The trial timeout starts here, after the sandbox is ready, and aborts the trial's signal. */
async function converseUnderTimeout(s: Session): Promise<AgentPhaseOutcome> {
  const seconds = trialTimeoutOf(s.run, s.input);
  const timer = setTimeout(() => s.abort.abort(new TrialTimeout(seconds)), seconds * 1000);
  s.phase = 'agent';
  s.opts.hooks?.onAgentPhase?.(s.input.taskId, 'start'); // this timer cannot fire in a blocked event loop: the pool's watchdog can
  try {
    return await timed(s, 'agent', () =>
      withinDiskLimit(s, (signal) =>
        runAgentPhase(s.run, s.input, {
          sessionId: s.sessionId,
          sandbox: s.sandbox,
          services: s.environment?.services,
          recorder: s.recorder,
          signal,
          onModelAnswered: s.opts.hooks?.onModelAnswered,
        }),
      ),
    );
  } finally {
    clearTimeout(timer);
    s.opts.hooks?.onAgentPhase?.(s.input.taskId, 'end');
  }
}

/**
 * A failure while grading. It does not replace an earlier error, except a timeout whose environment
 * turns out to have been taken away under it (a service or the sandbox lost): the agent may have
 * waited on what was gone, so the trial is infrastructure's (SANDBOX_ERROR, retried), not TIMEOUT.
 */
async function afterGrading(s: Session, before: ErrorValue | null, err: unknown): Promise<ErrorValue> {
  if (!before) return classify(s, err);
  if (before.kind === 'timeout' && err instanceof SandboxError) {
    const blamed = await blame(err, s.sandbox, sidecarsOf(s));
    if (blamed.kind === 'sandbox') return { ...blamed, message: `${blamed.message} (the trial timed out meanwhile)` };
  }
  return before;
}

async function classify(s: Session, err: unknown): Promise<ErrorValue> {
  const { signal } = s.abort;
  const reason: unknown = signal.aborted ? signal.reason : undefined;
  if (reason instanceof TrialTimeout) return { kind: 'timeout', message: reason.message };
  if (signal.aborted) return { kind: 'interrupted', message: 'the run was interrupted' };
  // From the agent's phase on, a sandbox failure is the agent's unless the infrastructure itself failed.
  if (err instanceof SandboxError && s.phase !== 'environment') return blame(err, s.sandbox, sidecarsOf(s));
  // ModelEndpointError: made by the harness from its own model client's error (agent-phase.ts, llm-judge.ts).
  if (err instanceof SandboxError || err instanceof LlmError || err instanceof ModelEndpointError)
    return toErrorValue(err);
  // Whatever else an agent or a hook throws (even a BenchrigError) is the agent's failure, unless
  // its sandbox's host was lost under it.
  const value: ErrorValue = { ...toErrorValue(err), kind: 'agent' };
  return s.phase !== 'environment' ? blameAgentError(value, s.sandbox, sidecarsOf(s)) : value;
}

/** A run's logs and results folders, as this worker knows them: the logs folder made once per run, not per trial. */
const runFolders = new Map<string, { logs: string; results: string; sharded: boolean }>();

async function foldersOf(runDir: string): Promise<{ logs: string; results: string; sharded: boolean }> {
  let f = runFolders.get(runDir);
  if (!f) {
    // A sharded run's shard folders were all made with the run folder (report/result-layout.ts).
    f = { logs: join(runDir, 'logs'), results: join(runDir, 'results'), sharded: isSharded(runDir) };
    await mkdir(f.logs, { recursive: true });
    runFolders.set(runDir, f);
  }
  return f;
}

async function save(run: RunContext, result: TrialResult, logLines: string[]): Promise<void> {
  const { logs, results, sharded } = await foldersOf(run.runDir);
  // Task ids are file-safe (run/trials.ts): the names are joined without path.join's normalising.
  const name = sharded ? `${shardOf(result.task_id)}${sep}${result.task_id}` : result.task_id;
  appendFileSync(`${logs}${sep}${name}.log`, logLines.join('\n') + '\n'); // a small file: see write.ts
  // Not fsync'd (see write.ts): it survives a harness crash; a power cut costs a re-run with --resume.
  await writeJsonAtomic(`${results}${sep}${name}.json`, result, { durable: false, compact: sharded });
}
