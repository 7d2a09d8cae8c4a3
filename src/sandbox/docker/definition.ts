// The Docker provider (docs/sandboxes.md): one engine, the local daemon. Chosen by `[run] provider =
// "docker"` (the default) when no fleet applies; it has no settings of its own, checks `[sandbox]
// subnet_pool` at load, and cleans the local daemon or the hosts `sandbox cleanup` names.
import type { ProviderDefinition } from '../definition.ts';
import { parseSubnetPool } from './subnet-pool.ts';

export const docker: ProviderDefinition<Record<string, never>> = {
  name: 'docker',
  chosenBy: 'docker',
  help: 'docker (default)',
  docs: 'docs/sandboxes.md',
  runFlags: [],
  settings: () => ({}),
  sandboxKeys(sandbox, at) {
    // A range that cannot hold a trial network's subnet is refused at load, naming the file and the key (exit 2).
    if (typeof sandbox.subnet_pool === 'string')
      parseSubnetPool(sandbox.subnet_pool, `${at.setBy('subnet_pool')}: key sandbox.subnet_pool`);
  },
  make: async () => new (await import('./environments.ts')).DockerEnvironments(),
  installedAgents: () => null,
  cleanup: {
    flags: [
      {
        flags: '--docker-host <url>',
        key: 'dockerHost',
        description:
          'a Docker host to clean (repeatable; default: [[sandbox.hosts]] of --config, else DOCKER_HOST or the local daemon)',
        repeatable: true,
      },
    ],
    run: async (req) => (await import('./cleanup.ts')).cleanupDocker(req),
  },
};
