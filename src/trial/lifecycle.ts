// One trial, start to finish (SPEC §6): a function of serialisable input returning a serialisable
// result, so that any pool can run it unchanged. Cleanup is in `finally` and cannot be skipped.
import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { gradeTrial } from '../checks/grade.ts';
import { decideStatus } from '../checks/status.ts';
import { type ErrorValue, LlmError, SandboxError, toErrorValue } from '../errors.ts';
import { writeJsonAtomic } from '../report/write.ts';
import type { Sandbox, SandboxProvider } from '../sandbox/types.ts';
import { startOnFleet, type SandboxSlot } from '../sandbox/fleet.ts';
import type { CheckVerdict, TrialResult } from '../types.ts';
import { loadHooks } from './hooks.ts';
import { formatEvent, Recorder } from './recorder.ts';
import { prepareEnvironment, copyTests, stopSandbox } from './environment.ts';
import { runAgentPhase, type AgentPhaseOutcome } from './agent-phase.ts';
import { startTrialSpans } from '../telemetry/spans.ts';
import type { RunContext, TrialHooks, TrialInput } from './types.ts';

export class TrialTimeout extends Error {
  constructor(readonly seconds: number) {
    super(`the trial exceeded trial_timeout_s = ${seconds}`);
    this.name = 'TrialTimeout';
  }
}

export interface TrialOptions {
  /** Aborted on Ctrl-C: the trial stops, cleans up and is not saved (resume runs it again). */
  signal?: AbortSignal;
  hooks?: TrialHooks;
  provider?: SandboxProvider;
}

const secondsSince = (t: number) => Math.round(performance.now() - t) / 1000;

export async function runTrial(run: RunContext, input: TrialInput, opts: TrialOptions = {}): Promise<TrialResult> {
  const startedAt = new Date();
  const t0 = performance.now();
  const sessionId = `${run.runId}.${input.taskId}.${randomBytes(4).toString('hex')}`;
  const logLines: string[] = [];
  const spans = await startTrialSpans(run, input, sessionId); // a no-op when telemetry is off
  const recorder = new Recorder((e) => {
    logLines.push(formatEvent(e));
    spans.event(e);
    opts.hooks?.onEvent?.(input.taskId, e);
  });
  const timings = { sandbox: 0, agent: 0, grading: 0, cleanup: 0 };
  const trialAbort = new AbortController();
  const onInterrupt = () => trialAbort.abort(opts.signal?.reason ?? new Error('interrupted'));
  opts.signal?.addEventListener('abort', onInterrupt, { once: true });
  if (opts.signal?.aborted) onInterrupt();

  let sandbox: Sandbox | undefined;
  let releaseSlot: SandboxSlot | undefined;
  let error: ErrorValue | null = null;
  let outcome: AgentPhaseOutcome | undefined;
  let verdicts: CheckVerdict[] = [];
  let artifacts: Record<string, unknown> = {};
  let finalState: Record<string, unknown> = {};
  const provider = run.sandbox ? (opts.provider ?? (await defaultProvider())) : undefined;
  const hooks = await loadHooks(run.benchmark.hooks);

  try {
    // 3. the environment; the trial's clock starts once the sandbox is ready
    let t = performance.now();
    const startSpan = run.sandbox ? spans.open('sandbox.start', { 'benchrig.sandbox.image': run.sandbox.image }) : null;
    try {
      if (provider && run.sandbox) {
        if (run.sandbox.fleet?.length) {
          // A fleet (SPEC §7): placed on a host, and moved to another when that host fails to start it.
          const start = (spec: typeof run.sandbox) => prepareEnvironment(provider, { ...run, sandbox: spec }, input, sessionId, trialAbort.signal);
          ({ sandbox, release: releaseSlot } = await startOnFleet(run.runId, run.sandbox, opts.hooks?.acquireSandbox, start, trialAbort.signal));
        } else {
          releaseSlot = await opts.hooks?.acquireSandbox?.(trialAbort.signal);
          sandbox = await prepareEnvironment(provider, run, input, sessionId, trialAbort.signal);
        }
        opts.hooks?.onSandbox?.(input.taskId, sandbox.id);
        startSpan?.set({ 'benchrig.sandbox.container': sandbox.id });
      }
      await hooks.prepareSample?.({ sample: input.sample, sandbox, sessionId, runDir: run.runDir, benchmarkDir: run.benchmark.dir });
    } catch (err) {
      startSpan?.end(err);
      throw err instanceof SandboxError || trialAbort.signal.aborted ? err : new SandboxError(`preparing the sandbox failed: ${(err as Error)?.message ?? err}`, err);
    } finally {
      timings.sandbox = secondsSince(t);
      startSpan?.end();
    }

    // 4–5. the agent and the conversation, under the trial timeout
    t = performance.now();
    const timer = setTimeout(() => trialAbort.abort(new TrialTimeout(run.limits.trial_timeout_s)), run.limits.trial_timeout_s * 1000);
    try {
      outcome = await runAgentPhase(run, input, { sessionId, sandbox, recorder, signal: trialAbort.signal });
    } finally {
      clearTimeout(timer);
      timings.agent = secondsSince(t);
    }
  } catch (err) {
    error = classify(err, trialAbort.signal);
  }

  try {
    // 6. collect and grade, unless interrupted (an interrupted trial is not saved)
    if (error?.kind !== 'interrupted' && error?.kind !== 'sandbox') {
      const t = performance.now();
      const gradeSpan = spans.open('grade');
      try {
        if (sandbox && input.sample.tests !== undefined) await copyTests(sandbox, run, input.sample);
        const collected = await hooks.collect?.({
          sample: input.sample, sandbox, sessionId, runDir: run.runDir, benchmarkDir: run.benchmark.dir, replies: outcome?.replies ?? [],
        });
        finalState = { ...(outcome?.state ?? {}), ...(collected?.final_state ?? {}) };
        artifacts = { ...(collected?.artifacts ?? {}) };
        const graded = await gradeTrial({
          checks: run.benchmark.checks, sample: input.sample, replies: outcome?.replies ?? [], events: recorder.events,
          finalState, blocked: outcome?.blocked ?? false, sandbox, artifacts, signal: opts.signal,
          judge: run.llm.judge, cache: run.llmCache, onEvent: recorder.record, customChecks: hooks.checks,
        });
        verdicts = graded.verdicts;
        artifacts = graded.artifacts;
        for (const v of verdicts) recorder.record({ type: 'check', name: v.name, passed: v.passed, score: v.score, reason: v.reason });
      } catch (err) {
        gradeSpan.end(err);
        if (!error) error = classify(err, trialAbort.signal);
      } finally {
        timings.grading = secondsSince(t);
        gradeSpan.end();
      }
    }
  } finally {
    // 8. clean up, always
    const t = performance.now();
    if (sandbox && provider) {
      if (run.keepSandbox && error?.kind !== 'interrupted') {
        recorder.log('info', `sandbox kept: docker exec -it ${sandbox.id.slice(0, 12)} sh   (remove: docker rm -f ${sandbox.id.slice(0, 12)})`);
      } else {
        const stopSpan = spans.open('sandbox.stop');
        await stopSandbox(provider, sandbox, error?.kind === 'interrupted', recorder);
        stopSpan.end();
      }
      opts.hooks?.onSandbox?.(input.taskId, null);
    }
    // A Docker error while the trial ran may mean its host is gone: the fleet checks it.
    releaseSlot?.(error?.kind === 'sandbox' && sandbox?.host ? { reason: error.message, during: 'run' } : undefined);
    timings.cleanup = secondsSince(t);
    opts.signal?.removeEventListener('abort', onInterrupt);
  }

  const { status, score } = decideStatus({
    error, verdicts, blocked: outcome?.blocked ?? false, blocksAreSuccess: run.benchmark.blocksAreSuccess, benign: input.sample.metadata.benign === true,
  });
  const result: TrialResult = {
    schema_version: 1,
    task_id: input.taskId,
    sample_id: input.sample.id,
    trial: input.trial,
    session_id: sessionId,
    prompt: input.sample.input,
    response: outcome?.replies.at(-1) ?? '',
    replies: outcome?.replies ?? [],
    blocked: outcome?.blocked ?? false,
    status,
    stop_reason: error ? (error.kind === 'timeout' ? 'timeout' : 'error') : (outcome?.stopReason ?? 'error'),
    score,
    checks: verdicts,
    events: recorder.events,
    final_state: finalState,
    artifacts,
    metadata: {
      llm_calls: recorder.llmCalls,
      user_llm_calls: recorder.userLlmCalls,
      tokens: { ...recorder.tokens },
      cost_usd: outcome?.costUsd ?? null,
      tools_used: { ...recorder.toolsUsed },
      execution_time_s: secondsSince(t0),
      timings_s: timings,
      sandbox: sandbox ? { image: sandbox.image, container: sandbox.id, ...(sandbox.host ? { host: sandbox.host } : {}), kept: run.keepSandbox && error?.kind !== 'interrupted' } : null,
      input_hash: input.inputHash,
      limit: outcome?.limit ?? null,
      sample_metadata: input.sample.metadata,
    },
    error,
    trace_id: spans.traceId,
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
  };
  spans.end(result);
  if (error?.kind !== 'interrupted') await save(run, result, logLines);
  return result;
}

function classify(err: unknown, signal: AbortSignal): ErrorValue {
  const reason = signal.aborted ? signal.reason : undefined;
  if (reason instanceof TrialTimeout) return { kind: 'timeout', message: reason.message };
  if (signal.aborted) return { kind: 'interrupted', message: 'the run was interrupted' };
  if (err instanceof SandboxError || err instanceof LlmError) return toErrorValue(err);
  return toErrorValue(err, 'agent');
}

/** Log folders made by this worker: one mkdir per run, not per trial. */
const logDirs = new Set<string>();

async function save(run: RunContext, result: TrialResult, logLines: string[]): Promise<void> {
  const logs = join(run.runDir, 'logs');
  if (!logDirs.has(logs)) await mkdir(logs, { recursive: true }).then(() => logDirs.add(logs));
  appendFileSync(join(logs, `${result.task_id}.log`), logLines.join('\n') + '\n'); // a small file: see write.ts
  // Not fsync'd (see write.ts): it survives a harness crash; a power cut costs a re-run with --resume.
  await writeJsonAtomic(join(run.runDir, 'results', `${result.task_id}.json`), result, { durable: false });
}

let provider: Promise<SandboxProvider> | undefined;
function defaultProvider(): Promise<SandboxProvider> {
  provider ??= import('../sandbox/docker.ts').then((m): SandboxProvider => new m.DockerProvider());
  return provider;
}
