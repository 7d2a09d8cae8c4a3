// The entry of sandbox/ for the rest of src/ (ARCHITECTURE.md: nothing outside sandbox/ imports a
// provider's modules): the provider of a run's spec, made by its definition in the registry
// (registry.ts), and the few provider-neutral helpers callers need. Providers load lazily: a run
// without a [sandbox] never loads an engine's client.
import type { EnvironmentProvider } from './provider.ts';
import { DEFAULT_PROVIDER, definitionOf } from './registry.ts';
import type { SandboxSpec } from './types.ts';

const made = new Map<string, Promise<EnvironmentProvider>>();

/** This process's provider for a spec (plain JSON, so a worker makes the same one from the run context). */
export function providerFor(spec: SandboxSpec): Promise<EnvironmentProvider> {
  const kind = spec.provider?.kind ?? DEFAULT_PROVIDER;
  const key = `${kind}:${JSON.stringify(spec.provider?.settings ?? null)}`;
  let p = made.get(key);
  if (!p) {
    p = definitionOf(kind).make(spec.provider?.settings);
    made.set(key, p);
    p.catch(() => made.delete(key));
  }
  return p;
}

export type { Environment, EnvironmentProvider, ProviderRun, SampleImages, StartOptions } from './provider.ts';
export type { ProviderFlag } from './definition.ts';
export type { HostFailure, SandboxSlot } from './slots.ts';
export { placementFor } from './slots.ts';
export { processAlive } from './process-alive.ts';
// The registry: the run's provider from its keys and flags, their flags, cleanup, and where an installed agent cannot run.
export {
  loadSandboxKeys,
  cleanup,
  cleanupFlags,
  cleanupProviders,
  DEFAULT_PROVIDER,
  installedAgentRefusal,
  providerHelp,
  providerNames,
  resolveProvider,
  runFlags,
  runFlagValues,
} from './registry.ts';
// What an installed agent runs inside its sandbox: the toolbox's shell, and the kill of what it started.
export { trustedArgv } from './docker/toolbox.ts';
export { killByMarkerScript } from './docker/exec.ts';
// The refusal of a missing image (run/sample-specs.ts, at run time).
export { missingImageMessage } from './image-ref.ts';
// Whether a sample's or service's build may use the network (run/sample-specs.ts).
export { buildNetworkOf } from './docker/images.ts';
// `sandbox build | prune`: this machine's images, which every provider builds with (docs/cli.md#sandbox).
export { buildImageHere, pruneSampleImages } from './docker/local-images.ts';
