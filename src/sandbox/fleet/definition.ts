// The fleet provider (docs/fleet.md): Docker on several hosts, chosen by `[run] provider = "docker"`
// when the run names hosts (`--docker-host`, `[[sandbox.hosts]]`, DOCKER_HOST). `sandbox cleanup`
// of its hosts is Docker's (docker/cleanup.ts).
import type { ProviderDefinition } from '../definition.ts';
import { hostsWithTls } from './host-tls.ts';
import { fleetHostsIn, type FleetSettings } from './settings.ts';

export const fleet: ProviderDefinition<FleetSettings> = {
  name: 'fleet',
  chosenBy: 'docker',
  docs: 'docs/fleet.md',
  runFlags: [
    {
      flags: '--docker-host <url=capacity>',
      key: 'dockerHost',
      description: 'a Docker host of the fleet, e.g. tcp://box:2376=8 (repeatable; over [[sandbox.hosts]])',
      repeatable: true,
    },
  ],
  settings(input) {
    const hosts = fleetHostsIn(input);
    const cooldownS = input.sandbox.host_cooldown_s;
    return hosts ? { hosts, ...(typeof cooldownS === 'number' ? { cooldownMs: cooldownS * 1000 } : {}) } : null;
  },
  sandboxKeys: (sandbox, at) => (Array.isArray(sandbox.hosts) ? { hosts: hostsWithTls(sandbox.hosts, at) } : {}),
  make: async (s) => new (await import('./environments.ts')).FleetEnvironments(s.hosts, s.cooldownMs),
  installedAgents: () => 'remove [[sandbox.hosts]] / --docker-host',
};
