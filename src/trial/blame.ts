// Who is to blame for a sandbox failure once the agent had its sandbox (docs/sandboxes.md). Before the
// agent's phase every failure is infrastructure. From then on the agent, root in its container, can
// kill its processes, stop it, or break what a later step needs; only the daemon failing (no
// answer on a fresh connection, gone away since the sandbox started, the container removed or
// killed by Docker itself: the agent has no Docker access) stays SANDBOX_ERROR. Decided from the
// values the provider gives (SandboxError.daemon, the sandbox's health), never from a client library's errors.
import { describe, type ErrorValue, SandboxError, toErrorValue } from '../errors.ts';
import type { Sandbox, SandboxHealth } from '../sandbox/types.ts';

function stateText(h: SandboxHealth): string {
  if (h.lost) return h.lost;
  if (h.state !== 'stopped') return `container ${h.state}`;
  const how = h.killedByDocker ? ', killed by Docker' : h.oomKilled ? ', killed for memory' : '';
  return `container stopped${how}${h.exitCode !== undefined ? `, exit ${h.exitCode}` : ''}`;
}

/** The sandbox's host failed it: its daemon is gone or not the same, or Docker removed or killed the container. */
export function sandboxLost(h: SandboxHealth): boolean {
  return !h.daemon || h.state === 'gone' || h.state === 'unknown' || !!h.killedByDocker;
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

/** The error value of a SandboxError raised during or after the agent's phase. */
export async function blame(err: SandboxError, sandbox: Sandbox | undefined): Promise<ErrorValue> {
  if (!sandbox) return toErrorValue(err);
  const { fault, health } = await agentsFault(err, sandbox);
  if (!fault) return { ...toErrorValue(err), sandbox: health };
  return {
    kind: 'agent',
    message: `the sandbox failed during or after the agent's phase (${stateText(health)}; the daemon is healthy, so the agent's doing): ${err.message}`,
    ...(err.cause ? { cause: describe(err.cause) } : {}),
    sandbox: health,
  };
}

/**
 * Whatever else the agent threw (its own error over a command the daemon cut short, say) is the
 * agent's, unless the sandbox's host was lost meanwhile: then it is infrastructure (retried).
 */
export async function blameAgentError(value: ErrorValue, sandbox: Sandbox | undefined): Promise<ErrorValue> {
  if (!sandbox) return value;
  const health = await sandbox.health();
  if (!sandboxLost(health)) return value;
  return {
    kind: 'sandbox',
    message: `the sandbox's host failed during the agent's phase (${stateText(health)}); the agent then failed: ${value.message}`,
    sandbox: health,
  };
}
