// A fleet's settings (docs/fleet.md): its Docker hosts from `--docker-host`, else `[[sandbox.hosts]]`
// (TLS paths already absolute: loadBenchmark resolved them against the file that set them), else
// DOCKER_HOST. What the spec carries as `provider.settings` when the fleet is the run's provider.
import { BenchrigError } from '../../errors.ts';
import { fleetHostsOf, type DockerHostSpec } from '../docker/hosts.ts';
import type { ProviderInput } from '../definition.ts';
import type { SandboxSpec } from '../types.ts';

export interface FleetSettings {
  hosts: DockerHostSpec[];
  /** `[sandbox] host_cooldown_s`: how long a failing host stays out of placement; absent: the default. */
  cooldownMs?: number;
}

/** The hosts the run's keys, flags and environment name; null: none (the local daemon). */
export function fleetHostsIn(input: ProviderInput): DockerHostSpec[] | null {
  const config = input.sandbox.hosts as Parameters<typeof fleetHostsOf>[0];
  return fleetHostsOf(config, input.flags.dockerHost as string[] | undefined, input.env, input.benchmarkDir);
}

/**
 * Refuses a run on another engine (`provider`: its `[run] provider` value) that names Docker hosts
 * itself (`[[sandbox.hosts]]`, `--docker-host`). DOCKER_HOST is not read: it is the Docker engine's
 * own setting, which only Docker's providers (this fleet, docker) take.
 */
export function refuseNamedHosts(input: ProviderInput, provider: string): void {
  const { hosts } = input.sandbox;
  const flags = input.flags.dockerHost;
  if ((Array.isArray(hosts) && hosts.length) || (Array.isArray(flags) && flags.length))
    throw new BenchrigError(
      'usage',
      `[run] provider = "${provider}" and a fleet of Docker hosts ([[sandbox.hosts]] / --docker-host) exclude each other: keep one`,
    );
}

/** The fleet's hosts of a spec whose provider is the fleet; none otherwise. */
export const hostsOf = (spec: SandboxSpec): DockerHostSpec[] =>
  spec.provider?.kind === 'fleet' ? ((spec.provider.settings as FleetSettings | undefined)?.hosts ?? []) : [];
