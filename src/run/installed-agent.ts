// Before an installed agent's run (docs/agents.md#installed-agents): the preset and its options checked, the combinations
// it cannot serve refused (exit 2), its runtime installed into the host cache (once per machine),
// the image checked for glibc, and the folder made where each worker's gateway puts its socket.
import { mkdtempSync, chmodSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InstalledRun } from '../agents/installed/confine.ts';
import { ensurePackage, NODE_PACKAGE } from '../agents/installed/cache.ts';
import { GLIBC_LOADER } from '../agents/installed/launch.ts';
import { installedSpec, loadInstalledModule } from '../agents/installed/resolve.ts';
import type { Config } from '../config/schema.ts';
import { BenchrigError, SandboxError } from '../errors.ts';
import { remoteSandboxes, type SampleImages } from '../sandbox/index.ts';
import type { SandboxSpec } from '../sandbox/types.ts';

export interface PreparedInstalledAgent {
  installed: InstalledRun;
  /** Removes the socket folder; after the last trial. */
  dispose: () => void;
}

/** For an installed agent (agents/load.ts `installed`). Throws a BenchrigError (exit 2) for what cannot work. */
export async function prepareInstalledAgent(
  cfg: Config,
  agentName: string,
  sandbox: SandboxSpec | null,
  log: (m: string) => void,
  /** The run's images (its provider's `prepare`): asked whether the image has glibc. */
  images?: SampleImages,
): Promise<PreparedInstalledAgent> {
  await loadInstalledModule(cfg.agent.options);
  const spec = installedSpec(agentName, cfg.agent.options);
  if (!sandbox)
    throw new BenchrigError(
      'benchmark',
      `${spec.name} is an installed agent: it runs inside the sandbox, and this benchmark has no [sandbox]`,
    );
  const remote = remoteSandboxes(sandbox);
  if (remote)
    throw new BenchrigError(
      'usage',
      `${spec.name} is an installed agent, which runs only on the local Docker daemon (its sandbox reaches the model gateway through a unix socket on this machine); ${remote}`,
    );
  if (!spec.multiTurn && cfg.user.kind !== 'none' && cfg.limits.max_turns > 1)
    throw new BenchrigError(
      'usage',
      `${spec.name} is single-turn (it cannot continue its own session): set [limits] max_turns = 1 or [user] kind = "none"`,
    );

  // The image first: a refusal must not wait for (or need) a download of the agent.
  if (spec.needsGlibc && images) await requireGlibc(images, sandbox.image, spec.name);
  const nodeDir = join(
    await ensurePackage(NODE_PACKAGE, { log, ignoreScripts: true }),
    'node_modules',
    NODE_PACKAGE.name,
  );
  const agentDir = await ensurePackage(spec.package, { log });

  // Short (a unix socket path has 108 bytes), outside the run folder, readable by the sandbox's user.
  const socketDir = mkdtempSync(join(tmpdir(), 'benchrig-gw-'));
  chmodSync(socketDir, 0o755);
  return {
    installed: { name: agentName, nodeDir, agentDir, socketDir },
    dispose: () => rmSync(socketDir, { recursive: true, force: true }),
  };
}

/** The image has the glibc loader (read from the image, nothing run): busybox and Alpine do not. */
async function requireGlibc(images: SampleImages, image: string, agent: string): Promise<void> {
  let has: boolean;
  try {
    has = await images.hasFile(image, GLIBC_LOADER);
  } catch (err) {
    const e = err instanceof SandboxError ? err : new SandboxError(String(err), err);
    throw new SandboxError(`checking ${image} for glibc failed: ${e.message}`, e.cause, e.retryable, e);
  }
  if (!has)
    throw new BenchrigError(
      'benchmark',
      `${agent} needs a glibc image and ${image} has none (${GLIBC_LOADER} is missing): use [sandbox] image = "benchrig/debian:1" (sandboxes/debian) or another glibc image; busybox and Alpine images cannot run it`,
    );
}
