// What `--keep-sandbox` prints for a kept Docker environment (docs/sandboxes.md#kept-sandboxes): how
// to enter main and each service beside it, and what else stays until the run's `sandbox cleanup --run`.
import { keptSandboxLine, runCleanup } from './labels.ts';
import type { Environment } from './provider.ts';

export function dockerKeptLines(env: Environment, runDir: string): string[] {
  const lines = [keptSandboxLine(env.main.id, runDir, env.main.host)];
  for (const [name, service] of Object.entries(env.services))
    lines.push(`service ${name}: ${keptSandboxLine(service.id, runDir, service.host)}`);
  const networks = env.networks?.length ? env.networks : env.network ? [env.network] : [];
  const rest = [...networks.map((n) => `network ${n.name}`), ...(env.volumes ?? []).map((v) => `volume ${v.source}`)];
  if (rest.length)
    lines.push(`also kept: ${rest.join(', ')} (${runCleanup(runDir, env.main.host)} removes them with the rest)`);
  return lines;
}
