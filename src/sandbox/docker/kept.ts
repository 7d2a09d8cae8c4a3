// What `--keep-sandbox` prints for a kept Docker environment (docs/sandboxes.md#kept-sandboxes): how
// to enter main and each service beside it, and what else stays until the run's `sandbox cleanup --run`.
import { keptSandboxLine, runCleanup } from './labels.ts';
import type { EngineKept } from './engine.ts';
import type { Environment } from '../provider.ts';

/** Docker's: `docker exec` lines and the run's `sandbox cleanup --run`. */
const DOCKER_KEPT: EngineKept = { line: keptSandboxLine, cleanup: runCleanup };

/**
 * `kept`: how to enter and remove one container, and the command that removes the run's sandboxes
 * (engine.ts `kept`); default Docker's, on its fleet host if any.
 */
export function dockerKeptLines(env: Environment, runDir: string, kept: EngineKept = DOCKER_KEPT): string[] {
  const lines = [kept.line(env.main.id, runDir, env.main.host)];
  for (const [name, service] of Object.entries(env.services))
    lines.push(`service ${name}: ${kept.line(service.id, runDir, service.host)}`);
  const networks = env.networks?.length ? env.networks : env.network ? [env.network] : [];
  const rest = [...networks.map((n) => `network ${n.name}`), ...(env.volumes ?? []).map((v) => `volume ${v.source}`)];
  if (rest.length)
    lines.push(`also kept: ${rest.join(', ')} (${kept.cleanup(runDir, env.main.host)} removes them with the rest)`);
  return lines;
}
