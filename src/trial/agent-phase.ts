// Phases 4 and 5 of a trial: load the agent in this worker and hold the conversation, racing the
// trial's abort signal so that a hung agent cannot hold the trial past its timeout.
import { checkAgent } from '../agents/contract.ts';
import { loadAgent, type LoadedAgent } from '../agents/load.ts';
import type { Agent, AgentContext, LlmClient, ServiceHandle } from '../agents/types.ts';
import { publicSample } from '../benchmark/public.ts';
import type { LlmConfig } from '../config/schema.ts';
import { abortReason, ModelEndpointError } from '../errors.ts';
import { createLlmClient, type BenchrigLlmClient } from '../llm/client.ts';
import type { Sandbox } from '../sandbox/types.ts';
import type { CallSink, NewEvent } from '../types.ts';
import { loadUser } from '../user/load.ts';
import { AgentTurn } from './agent-turn.ts';
import { agentRecord } from './contexts.ts';
import { converse, type ConversationOutcome } from './conversation.ts';
import { recordedSandbox } from './recorded-sandbox.ts';
import type { Recorder } from './recorder.ts';
import type { RunContext, TrialInput } from './types.ts';

export interface AgentPhaseOutcome extends ConversationOutcome {
  /** From an agent that submits its model patch (load.ts `patchOf`: predictions), handed no sandbox; null: it submitted none. */
  modelPatch?: string | null;
}

export async function runAgentPhase(
  run: RunContext,
  input: TrialInput,
  s: {
    sessionId: string;
    sandbox?: Sandbox;
    services?: Readonly<Record<string, Sandbox>>;
    recorder: Recorder;
    signal: AbortSignal;
    /** Told once, at the first answer of the harness's model clients (TrialHooks). */
    onModelAnswered?: () => void;
  },
): Promise<AgentPhaseOutcome> {
  const { recorder, signal } = s;
  const { onEvent, onCall } = watchedSinks(recorder, s.onModelAnswered);
  // Everything the agent is handed holds for its turn only (agent-turn.ts); its signal aborts when the turn ends.
  const turn = new AgentTurn(signal);
  const agentSignal = turn.signal;
  const client = (config: LlmConfig, role: 'agent' | 'user', budget: number, signal: AbortSignal) =>
    createLlmClient({
      config,
      role,
      budget,
      signal,
      cache: { ...run.llmCache, scope: `trial ${input.trial}` },
      onEvent,
      onCall,
    });
  const agentLlm = client(run.llm.agent, 'agent', run.limits.max_llm_calls, agentSignal);
  const userLlm = lazyClient(() => client(run.llm.user, 'user', run.limits.max_user_llm_calls, signal));

  const loaded = await loadedAgent(run.agent);
  // An agent that does not record its own tool calls has each of its sandbox calls recorded as one.
  // An agent whose reply is its patch gets no sandbox: its environment stays as fresh as a new one (isolation.ts).
  const sandbox =
    s.sandbox && !loaded.patchOf
      ? turn.sandbox(loaded.recordsOwnToolCalls ? s.sandbox : (recordedSandbox(s.sandbox, recorder.record) as Sandbox))
      : undefined;
  const services = serviceHandles(turn, s.services, loaded.recordsOwnToolCalls ? null : recorder.record);
  const ctx: AgentContext = {
    sessionId: s.sessionId,
    sample: publicSample(input.sample),
    sandbox,
    ...(services ? { services } : {}),
    llm: turn.llm(agentLlm),
    options: run.agent.options,
    signal: agentSignal,
    record: turn.record(agentRecord(recorder.record)),
  };
  let agent: Agent | undefined;
  // Whose errors may say the endpoint failed: the trial's model clients, and an installed agent's gateway.
  const outages: Outages[] = [agentLlm, userLlm];
  try {
    // An installed agent's gateway hands its calls' transcripts to the trial (the agent's own ctx.record cannot).
    const recordCall = onCall ? turn.record(onCall) : undefined;
    const made = await raceAbort(createAgent(loaded, ctx, run, { input, recordCall }), signal);
    if (made.outages) outages.push(made.outages);
    // What the factory returned is checked against the contract: no respond is an AGENT_ERROR that says so.
    agent = checkAgent(made.agent);
    const user = await loadUser(run.user, run.benchmark.dir);
    const outcome = await raceAbort(
      converse({
        agent,
        user,
        sample: input.sample,
        maxTurns: run.limits.max_turns,
        agentLlm,
        userLlm,
        recorder,
        signal,
      }),
      signal,
    );
    const patch = loaded.patchOf ? { modelPatch: loaded.patchOf(outcome) } : {};
    return { ...outcome, ...patch };
  } catch (err) {
    throw endpointOrOwn(err, outages);
  } finally {
    // close() is the agent's own cleanup; it must not hold the trial either
    if (agent?.close) await raceAbort(agent.close(), AbortSignal.timeout(5000)).catch(() => {});
    await turn.end(); // its hands leave the sandbox, whatever its code still runs
  }
}

/** Knows the errors it threw because a model endpoint failed: a model client, an installed agent (its gateway's). */
interface Outages {
  outageIn(err: unknown): Error | null;
}

/**
 * What the agent's phase failed with. An error one of the trial's model clients threw because its
 * endpoint failed, let through by the agent or the cause of its own, is the endpoint's (MODEL_ERROR,
 * docs/agents.md#when-the-model-endpoint-fails); so is the one an installed agent threw when its
 * gateway saw the endpoint fail and the CLI gave no answer. Only they know their errors, so one the
 * agent made itself, however it looks, stays the agent's.
 */
function endpointOrOwn(err: unknown, clients: Outages[]): unknown {
  for (const c of clients) {
    const outage = c.outageIn(err);
    if (outage) return new ModelEndpointError(outage.message);
  }
  return err instanceof ModelEndpointError ? Object.assign(new Error(err.message), { stack: err.stack }) : err;
}

/** ctx.services: each service's exec, readFile and writeFile, recorded (naming the service) and revoked with the turn. */
function serviceHandles(
  turn: AgentTurn,
  services: Readonly<Record<string, Sandbox>> | undefined,
  record: ((e: NewEvent) => void) | null,
): Readonly<Record<string, ServiceHandle>> | undefined {
  if (!services || !Object.keys(services).length) return undefined;
  const handles = Object.entries(services).map(([name, box]) => {
    const calls = record ? recordedSandbox(box, record, name) : box;
    const inner = {
      id: box.id,
      image: box.image,
      workdir: box.workdir,
      exec: calls.exec,
      readFile: calls.readFile,
      writeFile: calls.writeFile,
    };
    return [name, turn.sandbox(inner)] as const;
  });
  return Object.freeze(Object.fromEntries(handles));
}

/**
 * The agent, made with the context it takes (load.ts declares it: only a `trusted` agent sees the
 * ground truth); an installed agent (built in) also knows its own MODEL_ERRORs.
 */
async function createAgent(
  loaded: LoadedAgent,
  ctx: AgentContext,
  run: RunContext,
  { input, recordCall }: { input: TrialInput; recordCall?: CallSink },
): Promise<{ agent: unknown; outages?: Outages }> {
  switch (loaded.context) {
    case 'public':
      return { agent: await loaded.factory(ctx) };
    case 'trusted':
      return { agent: await loaded.factory({ ...ctx, groundTruth: input.sample, benchmarkDir: run.benchmark.dir }) };
    case 'installed': {
      const agent = await loaded.factory({ ...ctx, installed: { run, input, recordCall } });
      return { agent, outages: agent };
    }
  }
}

// The agent is loaded once per worker: a dynamic import per trial cost a round trip to the
// module loader (~0.8 ms a trial under tsx, measured). A failed load is not kept: the next trial retries.
const loadedAgents = new Map<string, Promise<LoadedAgent>>();

/**
 * Starts loading the agent module as a worker boots, so that the pool's first round of trials does
 * not wait for all of it (8 threads loading at once on 2 cores: the first trials took 350–560 ms
 * instead of ~230 ms). Never rejects: a failure is left for the first trial to report.
 */
export const preloadAgent = (agent: AgentRef): Promise<void> =>
  loadedAgent(agent).then(
    () => {},
    () => {},
  );

type AgentRef = Pick<RunContext['agent'], 'name' | 'module'>;

function loadedAgent(agent: AgentRef): Promise<LoadedAgent> {
  const key = agent.module ?? `builtin:${agent.name}`;
  let p = loadedAgents.get(key);
  if (!p) {
    p = loadAgent(agent);
    loadedAgents.set(key, p);
    p.catch(() => loadedAgents.delete(key));
  }
  return p;
}

/**
 * The simulated user's model client, made on first use: most users (none, scripted) never call a
 * model, and one made for every trial would be garbage in every trial.
 */
function lazyClient(make: () => BenchrigLlmClient): LlmClient & Outages {
  let made: BenchrigLlmClient | undefined;
  const get = () => (made ??= make());
  return {
    chat: (req) => get().chat(req),
    outageIn: (err) => made?.outageIn(err) ?? null,
    get callsUsed() {
      return get().callsUsed;
    },
    get callsLeft() {
      return get().callsLeft;
    },
  };
}

/** Rejects as soon as the signal aborts, whatever the promise does (a hung agent never settles). */
export function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the promise's own rejection, passed on unchanged
      (e) => (signal.removeEventListener('abort', onAbort), reject(e)),
    );
  });
}

/**
 * Where the harness's own model clients (and an installed agent's gateway) record their calls: the
 * recorder's, and `answered` told once at the first call that was answered. An event the agent records
 * itself (ctx.record) never reaches it: an agent cannot say that its endpoint answers.
 */
function watchedSinks(
  recorder: Recorder,
  answered?: () => void,
): { onEvent: (e: NewEvent) => void; onCall?: CallSink } {
  const sinks = { onEvent: recorder.record, onCall: recorder.transcript ? recorder.recordCall : undefined };
  if (!answered) return sinks;
  let tell: (() => void) | undefined = answered;
  // A judge's call says nothing of the endpoint the trials wait on; a failed call says the opposite.
  const watch = (e: NewEvent) => {
    if (tell && e.type === 'llm_call' && !e.error && e.role !== 'judge') {
      tell();
      tell = undefined;
    }
  };
  const { onCall } = sinks;
  return {
    onEvent: (e) => (sinks.onEvent(e), watch(e)),
    onCall: onCall && ((e, call) => (onCall(e, call), watch(e))),
  };
}
