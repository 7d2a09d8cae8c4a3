// What `--keep-sandbox` prints for a kept Docker environment (docs/sandboxes.md#kept-sandboxes): how
// to enter main and each service beside it, and what else stays until `sandbox cleanup --kept`.
import { keptSandboxLine } from './labels.ts';
import type { Environment } from './provider.ts';

/**
 * `kept`: how to enter and remove one container, and the command that removes every kept one
 * (engine.ts `kept`); default Docker's, on its fleet host if any.
 */
export function dockerKeptLines(
  env: Environment,
  kept: { line: (id: string, host?: string) => string; cleanup: string } = {
    line: keptSandboxLine,
    cleanup: 'benchrig sandbox cleanup --kept',
  },
): string[] {
  const line = kept.line;
  const lines = [line(env.main.id, env.main.host)];
  for (const [name, service] of Object.entries(env.services))
    lines.push(`service ${name}: ${line(service.id, service.host)}`);
  const networks = env.networks?.length ? env.networks : env.network ? [env.network] : [];
  const rest = [...networks.map((n) => `network ${n.name}`), ...(env.volumes ?? []).map((v) => `volume ${v.source}`)];
  if (rest.length) lines.push(`also kept: ${rest.join(', ')} (${kept.cleanup} removes them with the rest)`);
  return lines;
}
