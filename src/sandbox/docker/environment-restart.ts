// Before grading, on Docker (docs/sandboxes.md#how-grading-is-isolated-from-the-agent): every
// process the agent could have started in any service of its environment ends. A lone sandbox keeps
// running with its keep-alive alone (endInPlace); with services, each service
// runs again bare — main its keep-alive, another its own command — in the environment's order,
// each after what it depends on is started, healthy or completed, as at start. Every container is
// ended before any starts again, so nothing of the agent is left to meet the new ones. A service
// that is not running (the agent stopped it, or it completed) has no process left: it stays as it is.
import type { EnvironmentSpec } from '../../environment/spec.ts';
import { SandboxError } from '../../errors.ts';
import { DockerSandbox } from './sandbox.ts';
import type { Environment } from '../provider.ts';
import { checkStillUp, waitForService, type Waited } from './service-wait.ts';

/** Docker's own default before SIGKILL, when a service sets no `stop_grace_period`. */
const DEFAULT_GRACE_S = 10;

/**
 * Resolves with a line per service that did not come back (it is graded as it is). A failure of the
 * daemon, or of main, throws (blame reads each service's health: trial/blame.ts).
 */
export async function restartEnvironment(
  env: Environment,
  spec: EnvironmentSpec | undefined,
  signal?: AbortSignal,
): Promise<string[]> {
  const main = docker(env.main);
  // A lone sandbox: every process but its keep-alive ends in place, one exec instead of a stop and a
  // start (sandbox.ts endInPlace); with services, every container is ended before any starts again.
  if (Object.keys(env.services).length === 0) return main.endInPlace().then(() => []);
  const services = Object.entries(env.services).map(([name, box]) => [name, docker(box)] as const);
  const up = await Promise.all(services.map(async ([, box]) => (await box.health()).state === 'running'));
  const again = new Map(services.filter((_, i) => up[i]));
  await Promise.all([main.end(), ...[...again.values()].map((box) => box.end(graceOf(box)))]);
  const mainName = spec?.main ?? 'main';
  const boxOf = (name: string) => (name === mainName ? main : again.get(name));
  const notes = new Map<string, string>();
  const note = (name: string, err: unknown) => {
    if (!(err instanceof SandboxError) || err.retryable || signal?.aborted) throw err;
    notes.set(
      name,
      `service ${name} did not come back after its restart for grading (${why(err, name)}); graded as it is`,
    );
  };
  for (const name of spec?.order ?? [mainName]) {
    const box = boxOf(name);
    if (!box) continue;
    for (const [dep, { condition }] of Object.entries(spec?.services[name]?.dependsOn ?? {})) {
      const depBox = boxOf(dep);
      if (depBox && !notes.has(dep))
        await waitForService(waited(spec, dep, depBox), condition, signal).catch((err: unknown) => note(dep, err));
    }
    if (box === main) await main.startAgain();
    else await startService(box).catch((err: unknown) => note(name, err));
  }
  for (const [name, box] of again)
    if (!notes.has(name)) await checkStillUp(waited(spec, name, box)).catch((err: unknown) => note(name, err));
  return [...notes.values()];
}

/** The service's `stop_grace_period` (bounded where it is read), else Docker's default. */
const graceOf = (box: DockerSandbox) => box.stopGraceS ?? DEFAULT_GRACE_S;

function docker(box: Environment['main']): DockerSandbox {
  if (!(box instanceof DockerSandbox))
    throw new Error('internal: a Docker environment with a sandbox of another provider');
  return box;
}

/**
 * A start the daemon answered but refused, the service still there and stopped (the agent removed
 * its program, say): the service did not come back, the trial goes on. Anything else throws.
 */
async function startService(box: DockerSandbox): Promise<void> {
  try {
    await box.startAgain();
  } catch (err) {
    if (!(err instanceof SandboxError) || err.daemon !== 'answered') throw err;
    const h = await box.health();
    if (!h.daemon || h.state !== 'stopped' || h.killedByInfrastructure) throw err;
    throw new SandboxError(`its start failed: ${err.message}`, err, false);
  }
}

function waited(spec: EnvironmentSpec | undefined, name: string, box: DockerSandbox): Waited {
  const healthcheck = spec?.services[name]?.healthcheck;
  return { name, container: box.container, ...(healthcheck ? { healthcheck } : {}) };
}

/** The reason without the service's name, which the note starts with. */
const why = (err: SandboxError, name: string) =>
  err.message.startsWith(`service ${name} `) ? err.message.slice(`service ${name} `.length) : err.message;
