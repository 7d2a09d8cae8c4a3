// Every provider, one line each (docs/sandboxes.md#providers): a new one is its folder and a line here.
// A definition (definition.ts) makes its settings from the run's keys, flags and environment, adds its
// flags to `run` and `sandbox cleanup`, and makes its provider; the rest of src/ asks this file and
// never learns which provider runs. Order matters where several share a `[run] provider` value: the
// first whose settings apply wins (a fleet when hosts are named, else one engine).
import { BenchrigError } from '../errors.ts';
import type { CleanupRequest, KeySources, ProviderDefinition, ProviderFlag, ProviderInput } from './definition.ts';
import { docker } from './docker/definition.ts';
import { fleet } from './fleet/definition.ts';
import { kubernetes } from './kubernetes/definition.ts';
import { podman } from './podman/definition.ts';
import type { ProviderChoice } from './types.ts';

export const PROVIDERS: readonly ProviderDefinition[] = [fleet, docker, kubernetes, podman];

/** The provider a spec without one runs on. */
export const DEFAULT_PROVIDER = 'docker';

/** The definition of a registered provider. */
export function definitionOf(kind: string): ProviderDefinition {
  const found = PROVIDERS.find((d) => d.name === kind);
  if (!found) throw new Error(`internal: no provider "${kind}" is registered (sandbox/registry.ts)`);
  return found;
}

/** The values `[run] provider` and `run --provider` take, in the registry's order. */
export const providerNames = (): string[] => [...new Set(PROVIDERS.map((d) => d.chosenBy))];

/** The run's provider and its settings; throws a BenchrigError (exit 2) naming the key or flag that does not fit. */
export function resolveProvider(input: ProviderInput): ProviderChoice {
  for (const d of PROVIDERS.filter((p) => p.chosenBy === input.run.provider)) {
    const settings = d.settings(input);
    if (settings !== null) return { kind: d.name, settings };
  }
  throw new BenchrigError(
    'config',
    `[run] provider: "${input.run.provider}" is not one of ${providerNames().join(', ')}`,
  );
}

/** Every provider's load-time checks of the `[sandbox]` keys it reads; the keys they changed (paths made absolute). */
export function loadSandboxKeys(sandbox: Record<string, unknown>, at: KeySources): Record<string, unknown> {
  let changed: Record<string, unknown> = {};
  for (const d of PROVIDERS) changed = { ...changed, ...d.sandboxKeys?.(sandbox, at) };
  return changed;
}

/** Why an installed agent cannot run on the spec's provider (the whole message), or null. */
export function installedAgentRefusal(agent: string, choice: ProviderChoice | null | undefined): string | null {
  const why = definitionOf(choice?.kind ?? DEFAULT_PROVIDER).installedAgents(choice?.settings);
  return why
    ? `${agent} is an installed agent, which runs only on the local Docker daemon (its sandbox reaches the model gateway through a unix socket on this machine); ${why}`
    : null;
}

/** `run --provider`'s help: every provider a `[run] provider` value names. */
export const providerHelp = (): string => `where sandboxes run: ${sayList(PROVIDERS.flatMap((d) => d.help ?? []))}`;

/** The flags the providers add to `run`, in the registry's order. */
export const runFlags = (): ProviderFlag[] => PROVIDERS.flatMap((d) => d.runFlags);

/**
 * The parsed `run` options split by the providers' flags: the configuration layer of those that are
 * keys (`--push`), and the values of the others (`--docker-host`) for ProviderInput.flags.
 */
export function runFlagValues(options: Record<string, unknown>): {
  layer: Record<string, Record<string, unknown>>;
  flags: Record<string, unknown>;
} {
  const layer: Record<string, Record<string, unknown>> = {};
  const flags: Record<string, unknown> = {};
  for (const f of runFlags()) {
    const value = options[f.key];
    if (value === undefined) continue;
    if (!f.config) {
      flags[f.key] = value;
      continue;
    }
    for (const [table, keys] of Object.entries(f.config(value)))
      layer[table] = { ...layer[table], ...(keys as Record<string, unknown>) };
  }
  return { layer, flags };
}

/** The providers `sandbox cleanup --provider` takes, and the flags they add to it. */
export const cleanupProviders = (): string[] => PROVIDERS.filter((d) => d.cleanup).map((d) => d.name);
export const cleanupFlags = (): ProviderFlag[] => PROVIDERS.flatMap((d) => d.cleanup?.flags ?? []);

/** `sandbox cleanup --provider NAME` (default: the default provider). */
export function cleanup(provider: string | undefined, req: CleanupRequest): Promise<void> {
  const d = definitionOf(provider ?? DEFAULT_PROVIDER);
  if (!d.cleanup) throw new BenchrigError('usage', `sandbox cleanup takes --provider ${cleanupProviders().join(', ')}`);
  const own = new Set(d.cleanup.flags.map((f) => f.key));
  return d.cleanup.run({ ...req, flags: Object.fromEntries(Object.entries(req.flags).filter(([k]) => own.has(k))) });
}

const sayList = (items: string[]): string =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
