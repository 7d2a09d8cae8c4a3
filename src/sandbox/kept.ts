// What `--keep-sandbox` prints for a kept Docker environment (docs/sandboxes.md#kept-sandboxes): how
// to enter main and each service beside it, and what else stays until `sandbox cleanup --kept`.
import { keptSandboxLine } from './labels.ts';
import type { Environment } from './provider.ts';

export function dockerKeptLines(env: Environment): string[] {
  const lines = [keptSandboxLine(env.main.id, env.main.host)];
  for (const [name, service] of Object.entries(env.services))
    lines.push(`service ${name}: ${keptSandboxLine(service.id, service.host)}`);
  const networks = env.networks?.length ? env.networks : env.network ? [env.network] : [];
  const rest = [...networks.map((n) => `network ${n.name}`), ...(env.volumes ?? []).map((v) => `volume ${v.source}`)];
  if (rest.length)
    lines.push(`also kept: ${rest.join(', ')} (benchrig sandbox cleanup --kept removes them with the rest)`);
  return lines;
}
