// Who is to blame for a sandbox failure once the agent had its sandbox (docs/sandboxes.md). Before the
// agent's phase every failure is infrastructure. From then on the agent, root in its container, can
// kill its processes, stop it, or break what a later step needs; only the daemon failing (no
// answer on a fresh connection, gone away since the sandbox started, the container removed or
// killed by the infrastructure itself: the agent has no access to it) stays SANDBOX_ERROR. The same
// holds for the services beside main (docs/sandboxes.md#multi-service-environments): the agent reaches
// them, so one that stopped is its doing; one that is gone or that the infrastructure killed is the host's. Decided
// from the values the provider gives (SandboxError.daemon, each service's health), never from a
// client library's errors.
import { describe, type ErrorValue, recordedFacts, SandboxError, toErrorValue } from '../errors.ts';
import type { Sandbox, SandboxHealth } from '../sandbox/types.ts';

/** The services beside main, by name (a trial without any has none). */
export type Sidecars = Readonly<Record<string, Sandbox>>;

function stateText(h: SandboxHealth): string {
  if (h.lost) return h.lost;
  if (h.state !== 'stopped') return `container ${h.state}`;
  const how = h.killedByInfrastructure
    ? `, killed by ${h.killedByInfrastructure}`
    : h.outOfMemory
      ? ', killed for memory'
      : '';
  return `container stopped${how}${h.exitCode !== undefined ? `, exit ${h.exitCode}` : ''}`;
}

/** The sandbox's host failed it: its daemon is gone or not the same, or the infrastructure removed or killed the container. */
export function sandboxLost(h: SandboxHealth): boolean {
  return !h.daemon || h.state === 'gone' || h.state === 'unknown' || !!h.killedByInfrastructure;
}

/** What each sidecar's daemon says of it, asked afresh (all at once). */
function askSidecars(sidecars: Sidecars): Promise<Array<{ name: string; health: SandboxHealth }>> {
  return Promise.all(Object.entries(sidecars).map(async ([name, box]) => ({ name, health: await box.health() })));
}

/** The first sidecar whose host failed it; null when none was lost. */
async function lostSidecar(sidecars: Sidecars): Promise<{ name: string; health: SandboxHealth } | null> {
  return (await askSidecars(sidecars)).find((a) => sandboxLost(a.health)) ?? null;
}

/**
 * After the checks: a sidecar whose host failed it makes the trial infrastructure (a SandboxError,
 * retried: the agent or its tests met a service that was taken away). One that stopped while the
 * agent had it is the agent's doing (it reaches the service): graded as it was left, and said in
 * the trial's log (`note`). A service that completed (exit 0) is no news.
 */
export async function confirmSidecars(sidecars: Sidecars, note: (line: string) => void): Promise<void> {
  const asked = await askSidecars(sidecars);
  throwIfLost(asked);
  for (const { name, health: h } of asked)
    if (h.state === 'stopped' && (h.exitCode !== 0 || h.outOfMemory))
      note(
        `service ${name} stopped during the trial (${stateText(h)}): the agent's doing (it reaches it); graded as it was left`,
      );
}

/** Before grading restarts them: a sidecar whose host failed it makes the trial infrastructure's, as after the checks. */
export async function confirmNoSidecarLost(sidecars: Sidecars): Promise<void> {
  throwIfLost(await askSidecars(sidecars));
}

function throwIfLost(asked: Array<{ name: string; health: SandboxHealth }>): void {
  const lost = asked.find((a) => sandboxLost(a.health));
  if (lost) throw new SandboxError(`service ${lost.name} was lost during the trial (${stateText(lost.health)})`);
}

/**
 * True when the failure is the agent's: the daemon answered the failed call itself (not a timeout or
 * a dropped connection), is up and the same, and the container is still there as the agent left it.
 */
export async function agentsFault(
  err: SandboxError,
  sandbox: Sandbox,
): Promise<{ fault: boolean; health: SandboxHealth }> {
  const health = await sandbox.health();
  return { fault: err.daemon === 'answered' && !sandboxLost(health), health };
}

/** The error value of a SandboxError raised during or after the agent's phase; `sidecars` were reachable by the agent. */
export async function blame(
  err: SandboxError,
  sandbox: Sandbox | undefined,
  sidecars: Sidecars = {},
): Promise<ErrorValue> {
  if (!sandbox) return toErrorValue(err);
  const [{ fault, health }, lost] = await Promise.all([agentsFault(err, sandbox), lostSidecar(sidecars)]);
  if (lost)
    return {
      ...toErrorValue(err),
      message: err.message.startsWith(`service ${lost.name} was lost`) // confirmSidecars said it
        ? err.message
        : `service ${lost.name} was lost during the trial (${stateText(lost.health)}): ${err.message}`,
      sandbox: recordedFacts(lost.health),
    };
  if (!fault) return { ...toErrorValue(err), sandbox: recordedFacts(health) };
  return {
    kind: 'agent',
    message: `the sandbox failed during or after the agent's phase (${stateText(health)}; the daemon is healthy, so the agent's doing): ${err.message}`,
    ...(err.cause ? { cause: describe(err.cause) } : {}),
    sandbox: recordedFacts(health),
  };
}

/**
 * Whatever else the agent threw (its own error over a command the daemon cut short, say) is the
 * agent's, unless the host of its sandbox or of a service beside it was lost meanwhile: then it is
 * infrastructure (retried).
 */
export async function blameAgentError(
  value: ErrorValue,
  sandbox: Sandbox | undefined,
  sidecars: Sidecars = {},
): Promise<ErrorValue> {
  if (!sandbox) return value;
  const [health, lost] = await Promise.all([sandbox.health(), lostSidecar(sidecars)]);
  if (lost)
    return {
      kind: 'sandbox',
      message: `service ${lost.name} was lost during the agent's phase (${stateText(lost.health)}); the agent then failed: ${value.message}`,
      sandbox: recordedFacts(lost.health),
    };
  if (!sandboxLost(health)) return value;
  return {
    kind: 'sandbox',
    message: `the sandbox's host failed during the agent's phase (${stateText(health)}); the agent then failed: ${value.message}`,
    sandbox: recordedFacts(health),
  };
}
