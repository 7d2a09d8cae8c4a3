// Who is to blame for a Docker failure once the agent had its sandbox (docs/sandboxes.md). Before the
// agent's phase every failure is infrastructure. From then on the agent, root in its container, can
// kill its processes, stop it, or break what a later step needs; only the daemon failing (no
// answer, no such container: the agent has no Docker access to remove it) stays SANDBOX_ERROR.
import { describe, type ErrorValue, SandboxError, toErrorValue } from '../errors.ts';
import type { Sandbox, SandboxHealth } from '../sandbox/types.ts';

/** The daemon answered this failure itself (an HTTP status), rather than timing out or dropping the connection. */
function daemonAnswered(err: SandboxError): boolean {
  const code = (err.cause as { statusCode?: unknown } | null | undefined)?.statusCode;
  return typeof code === 'number';
}

function stateText(h: SandboxHealth): string {
  if (h.state !== 'stopped') return `container ${h.state}`;
  return `container stopped${h.oomKilled ? ', killed for memory' : ''}${h.exitCode !== undefined ? `, exit ${h.exitCode}` : ''}`;
}

/** True when the failure is the agent's: the daemon is up, answered, and the container is still there. */
export async function agentsFault(err: SandboxError, sandbox: Sandbox): Promise<{ fault: boolean; health: SandboxHealth }> {
  const health = await sandbox.health();
  return { fault: health.daemon && daemonAnswered(err) && (health.state === 'running' || health.state === 'stopped'), health };
}

/** The error value of a SandboxError raised during or after the agent's phase. */
export async function blame(err: SandboxError, sandbox: Sandbox | undefined): Promise<ErrorValue> {
  if (!sandbox) return toErrorValue(err);
  const { fault, health } = await agentsFault(err, sandbox);
  if (!fault) return toErrorValue(err);
  return {
    kind: 'agent',
    message: `the sandbox failed during or after the agent's phase (${stateText(health)}; the daemon is healthy, so the agent's doing): ${err.message}`,
    ...(err.cause ? { cause: describe(err.cause) } : {}),
  };
}
