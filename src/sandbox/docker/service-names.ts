// A trial's services found by name without the engine's DNS (engine.ts `names: 'hosts'`; Podman's:
// docs/podman.md#networks): each service has a fixed address on each trial network it joins (its
// place in the start order, after the gateway's), and `/etc/hosts` entries for every name of the
// services it shares a network with, at their address there: what Docker's DNS would answer.
import type { EnvironmentSpec } from '../../environment/spec.ts';
import { addressIn, parseCidr } from './subnet-pool.ts';
import type { DockerTrialScope } from './trial-scope.ts';

/** The services on the environment's network `network`, in start order (the order of their addresses). */
const servicesOn = (env: EnvironmentSpec, network: string): string[] =>
  env.order.filter((s) => !env.services[s].networkMode && network in env.services[s].networks);

/** `service`'s address on the environment's network `network`; undefined when it is not on it. */
export function fixedAddress(
  scope: DockerTrialScope,
  env: EnvironmentSpec,
  network: string,
  service: string,
): string | undefined {
  const subnet = parseCidr(scope.networks[network]?.subnet ?? '');
  const index = servicesOn(env, network).indexOf(service);
  return subnet && index >= 0 ? addressIn(subnet, 2 + index) : undefined;
}

/** `name:address` for every name (service name, aliases) reachable from `service`, itself included; the first network wins a name. */
export function hostEntries(scope: DockerTrialScope, env: EnvironmentSpec, service: string): string[] {
  const entries = new Map<string, string>();
  for (const network of Object.keys(env.services[service].networks))
    for (const other of servicesOn(env, network)) {
      const address = fixedAddress(scope, env, network, other);
      if (!address) continue;
      for (const name of [other, ...(env.services[other].networks[network]?.aliases ?? [])])
        if (!entries.has(name)) entries.set(name, address);
    }
  return [...entries].map(([name, address]) => `${name}:${address}`);
}
