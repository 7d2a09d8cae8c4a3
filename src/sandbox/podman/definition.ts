// The Podman provider (docs/podman.md): `[run] provider = "podman"`, the Docker provider on Podman's
// Docker-compatible service (provider.ts); `sandbox cleanup --provider podman` cleans that service.
import type { ProviderDefinition } from '../definition.ts';
import { podmanSettings, runPodmanSettings, type PodmanSpec } from './settings.ts';

export const podman: ProviderDefinition<PodmanSpec> = {
  name: 'podman',
  chosenBy: 'podman',
  help: 'podman (its service: docs/podman.md)',
  docs: 'docs/podman.md',
  runFlags: [],
  settings: runPodmanSettings,
  make: async (s) => (await import('./provider.ts')).podmanEnvironments(s),
  installedAgents: () =>
    'not on Podman: set [run] provider = "docker" (or drop --provider podman; docs/podman.md#what-podman-does-not-do)',
  cleanup: {
    flags: [],
    async run(req) {
      const { sweepPodman } = await import('./provider.ts');
      req.print(`removed ${await sweepPodman(podmanSettings(req.env), req.which)} container(s)/volume(s)`);
    },
  },
};
