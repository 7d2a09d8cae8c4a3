// The installed agent (docs/agents.md#installed-agents): one trial's CLI in the sandbox, behind the worker's model gateway.
// Each turn runs the CLI headless (later turns continue its own session); its model calls become the
// trial's llm_call/tool_call events through the gateway; a spent budget ends the trial with
// `llm_budget`. A turn in which the model's endpoint failed (llm/outage.ts) and the CLI then gave no
// answer is MODEL_ERROR; another model failure, AGENT_ERROR kind 'llm'. Its exit code, stdout and stderr
// (capped as any exec output) are `log` events of the result; its session files are kept as artifacts.
import { trustedArgv } from '../../sandbox/index.ts';
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { LlmBudgetExceeded, LlmError, ModelEndpointError } from '../../errors.ts';
import { routeFor, upstreamsFromConfig } from '../../gateway/upstreams.ts';
import type { GatewayRegistration } from '../../gateway/types.ts';
import { scrubFiles } from '../../config/scrub-files.ts';
import { trialTimeoutOf } from '../../trial/per-trial.ts';
import { runScrubber } from '../../trial/scrub.ts';
import type { RunContext, TrialInput } from '../../trial/types.ts';
import type { Agent, AgentContext, AgentReply } from '../types.ts';
import type { CallSink } from '../../types.ts';
import {
  AGENT_PATH,
  GLIBC_LOADER,
  IN_SANDBOX_BASE_URL,
  KILL_AGENT_SCRIPT,
  launchArgv,
  RUN_MARKER,
  setupScript,
} from './launch.ts';
import { installedSpec, loadInstalledModule } from './resolve.ts';
import type { GatewayView, InstalledAgentSpec } from './types.ts';
import { workerGateway } from './worker-gateway.ts';

/** What an installed agent is made with: the run and the trial it serves, besides the usual context. */
export interface InstalledAgentContext extends AgentContext {
  /** `recordCall`: where the gateway hands each call with its transcript, when the trial keeps them. */
  installed: { run: RunContext; input: TrialInput; recordCall?: CallSink };
}

/** An installed agent, and the MODEL_ERROR it threw itself (trial/agent-phase.ts trusts no other). */
export interface InstalledAgent extends Agent {
  outageIn(err: unknown): ModelEndpointError | null;
}

const HOME = '/home/benchrig-agent';
/** How long a CLI whose model endpoint failed may take to answer anyway before it is stopped (they retry for minutes). */
const ENDPOINT_GRACE_MS = 5000;
const AGENT_USER = '1000:1000';
const ARTIFACT_BYTES = 50 * 1024 * 1024;

/** The agent's home folder in the sandbox, with the files its spec writes there before the first turn. */
async function prepareHome(
  sandbox: NonNullable<AgentContext['sandbox']>,
  spec: InstalledAgentSpec,
  gw: GatewayView,
  user: string | undefined,
): Promise<void> {
  const setup = await sandbox.exec(setupScript(HOME, sandbox.workdir, !!user));
  if (setup.exitCode !== 0)
    throw new Error(`preparing the sandbox for ${spec.name} failed: ${setup.stderr.trim().slice(-300)}`);
  for (const [path, content] of Object.entries(spec.files?.(gw) ?? {})) {
    const abs = posix.resolve(HOME, path);
    // Written as the agent's user, so that the CLI may change its own config folders.
    const w = await sandbox.exec(['sh', '-c', 'mkdir -p "$(dirname "$1")" && cat > "$1"', 'sh', abs], {
      stdin: content,
      user,
    });
    if (w.exitCode !== 0) throw new Error(`writing ${abs} for ${spec.name} failed: ${w.stderr.trim()}`);
  }
}

// eslint-disable-next-line max-lines-per-function -- the agent's respond/close closures share the trial's gateway registration, home folder and turn state; split into steps next (issue #22 follow-up)
export default async function createInstalledAgent(ctx: InstalledAgentContext): Promise<InstalledAgent> {
  const { run, input } = ctx.installed;
  const sandbox = ctx.sandbox;
  if (!sandbox) throw new Error('an installed agent (cli:<preset>) needs the benchmark to have a [sandbox]');
  await loadInstalledModule(run.agent.options);
  const spec = installedSpec(run.agent.name, run.agent.options);
  const user = spec.unprivileged ? AGENT_USER : undefined;

  if (spec.needsGlibc) {
    const probe = await sandbox.exec(['test', '-e', GLIBC_LOADER]).catch(() => ({ exitCode: 1 }));
    if (probe.exitCode !== 0)
      throw new Error(
        `${spec.name} needs a glibc image; ${sandbox.image} has none (${GLIBC_LOADER} missing): use benchrig/debian:1 or another glibc image (busybox and Alpine are not)`,
      );
  }

  const { gateway, socketName } = await workerGateway(run);
  let budgetSpent: LlmBudgetExceeded | undefined;
  let modelError: string | undefined;
  let stopCurrent: (() => void) | undefined;
  // This turn's: the first endpoint failure, the timer that stops the CLI after it, whether it was stopped.
  const now: { endpointFailure?: string; grace?: NodeJS.Timeout; stopped: boolean } = { stopped: false };
  const stop = () => {
    if (!stopCurrent) return;
    now.stopped = true;
    stopCurrent();
  };
  const outages = new WeakSet<object>();
  const reg: GatewayRegistration = gateway.register({
    id: `${input.sample.id}#${input.trial}`,
    budget: run.limits.max_llm_calls,
    cacheScope: `trial ${input.trial}`,
    volatile: spec.volatile,
    onEvent: (event) => ctx.record(event),
    ...(ctx.installed.recordCall ? { onCall: ctx.installed.recordCall } : {}),
    onBudgetExhausted: (err) => (budgetSpent = err), // the CLI exits by itself on the 400 (0.4–7 s)
    onEndpointFailure: (message) => (now.endpointFailure ??= message),
    // CLIs retry a 502 for minutes: stopped at once, or after a grace to answer anyway when the endpoint failed.
    onModelError: (message, endpoint) =>
      endpoint ? (now.grace ??= setTimeout(stop, ENDPOINT_GRACE_MS)) : ((modelError ??= message), stop()),
  });
  const upstream = routeFor(upstreamsFromConfig(run.llm.agent), spec.api)?.upstream; // its own, or [llm] translated
  const gw: GatewayView = {
    baseUrl: IN_SANDBOX_BASE_URL,
    token: reg.token,
    model: upstream?.model ?? run.llm.agent.model,
    home: HOME,
    root: !user,
  };

  try {
    await prepareHome(sandbox, spec, gw, user);
  } catch (err) {
    reg.unregister();
    throw err;
  }

  const timeoutMs = trialTimeoutOf(run, input) * 1000 + 30_000; // the trial's own timer fires first
  let turn = 0;
  return {
    async respond(message: string): Promise<AgentReply> {
      turn++;
      if (turn > 1 && !spec.multiTurn) throw new Error(`${spec.name} is single-turn: it cannot continue its session`);
      Object.assign(now, { endpointFailure: undefined, stopped: false });
      const marker = randomUUID();
      const kill = () =>
        void sandbox.exec([...trustedArgv(KILL_AGENT_SCRIPT), 'sh', marker], { trusted: true, user }).catch(() => {});
      stopCurrent = kill;
      ctx.signal.addEventListener('abort', kill, { once: true });
      let r;
      try {
        r = await sandbox.exec(launchArgv(socketName, spec.command(message, turn, gw)), {
          timeoutMs,
          user,
          env: { ...spec.env(gw), HOME, PATH: AGENT_PATH, TZ: 'UTC', LANG: 'C.UTF-8', [RUN_MARKER]: marker },
        });
      } finally {
        clearTimeout(now.grace);
        now.grace = undefined;
        stopCurrent = undefined;
        ctx.signal.removeEventListener('abort', kill);
      }
      await reg.settled(); // every call of this turn is an event before the turn ends
      clearTimeout(now.grace); // one set by a call that ended after the CLI: nothing to stop
      now.grace = undefined;
      ctx.record({
        type: 'log',
        level: r.exitCode === 0 ? 'info' : 'warn',
        message: `${spec.name} exited ${r.exitCode}${r.timedOut ? ' (timed out)' : ''}${r.truncated ? ' (output truncated)' : ''}`,
      });
      if (r.stdout) ctx.record({ type: 'log', level: 'info', message: `${spec.name} stdout:\n${r.stdout}` });
      if (r.stderr) ctx.record({ type: 'log', level: 'info', message: `${spec.name} stderr:\n${r.stderr}` });
      const failed = now.endpointFailure;
      const answered = !now.stopped && r.exitCode === 0 && r.stdout.trim() !== '';
      if (failed && !answered) {
        const outage = new ModelEndpointError(`the model endpoint failed for ${spec.name}: ${failed}`);
        outages.add(outage);
        throw outage;
      }
      if (failed)
        ctx.record({
          type: 'log',
          level: 'warn',
          message: `${spec.name} answered after its model endpoint failed (${failed}): graded on its answer`,
        });
      if (modelError) throw new LlmError(`the model failed for ${spec.name}: ${modelError}`);
      if (budgetSpent) throw budgetSpent; // stop reason llm_budget, graded on what it did
      if (r.exitCode !== 0 && r.exitCode !== 124 && !r.stdout.trim())
        throw new Error(`${spec.name} exited ${r.exitCode}: ${(r.stderr || r.stdout).trim().slice(-500)}`);
      return { content: r.stdout.trim(), done: true };
    },
    outageIn: (err) => (err instanceof ModelEndpointError && outages.has(err) ? err : null),
    async close() {
      reg.unregister();
      await reg.settled();
      // Its own logs and session files, as artifacts (untrusted copy: regular files only, capped).
      const dest = join(run.runDir, 'trials', input.taskId, 'agent');
      for (const path of spec.collect) {
        const to = join(dest, path);
        await sandbox.copyOut(posix.join(HOME, path), to, { maxBytes: ARTIFACT_BYTES }).catch(() => {});
        // A session file holds the model's answers, which may echo its key: scrubbed, or not kept.
        await scrubFiles(to, runScrubber(run)).catch(() => rm(to, { recursive: true, force: true }));
      }
    },
  };
}
