// `benchrig sandbox cleanup` on Docker (docs/cli.md#sandbox-cleanup): what dead runs left on the local
// daemon, or on each host of a fleet (--docker-host, else --config's [[sandbox.hosts]], else
// DOCKER_HOST), and the image build folders of builds whose process is gone, on this machine.
import { dirname } from 'node:path';
import { z } from 'zod';
import { BenchrigError } from '../../errors.ts';
import { sweepBuildDirs } from '../build-dirs.ts';
import type { CleanupRequest } from '../definition.ts';
import { dockerHostSchema } from '../fleet/host-schema.ts';
import { checkDocker } from './client.ts';
import { checkHost } from './host-check.ts';
import { clientFor, fleetHosts, parseDockerHostFlag, resolveTls, type DockerHostSpec } from './hosts.ts';
import { sweep } from './sweep.ts';

export async function cleanupDocker(req: CleanupRequest): Promise<void> {
  const flags = req.flags.dockerHost as string[] | undefined;
  const hosts = cleanupHosts(flags, req.config, req.env);
  const builds = await sweepBuildDirs();
  if (builds > 0) req.print(`removed ${builds} image build folder(s)`);
  if (!hosts) {
    await checkDocker();
    const n = await sweep(req.which);
    req.print(`removed ${n} container(s)/volume(s)`);
    return;
  }
  for (const h of hosts) await checkHost(h);
  let total = 0;
  for (const h of hosts) {
    const n = await sweep(req.which, clientFor(h));
    total += n;
    if (hosts.length > 1) req.print(`${h.url}: removed ${n} container(s)/volume(s)`);
  }
  req.print(`removed ${total} container(s)/volume(s)`);
}

/** The hosts to sweep: --docker-host, else --config's [[sandbox.hosts]], else DOCKER_HOST; null: the local daemon. */
function cleanupHosts(
  flags: string[] | undefined,
  config: CleanupRequest['config'],
  env: NodeJS.ProcessEnv,
): DockerHostSpec[] | null {
  let fromConfig: DockerHostSpec[] | undefined;
  if (config) {
    const raw = (config.raw as { sandbox?: { hosts?: unknown } }).sandbox?.hosts;
    const parsed = z.array(dockerHostSchema()).safeParse(raw ?? []);
    if (!parsed.success)
      throw new BenchrigError('config', `${config.shown}: key sandbox.hosts: ${parsed.error.issues[0]?.message}`);
    fromConfig = parsed.data.map((h) => ({
      url: h.url,
      capacity: h.capacity,
      tls: resolveTls(h.tls, dirname(config.file)),
      source: `from [[sandbox.hosts]] in ${config.shown}`,
    }));
  }
  return fleetHosts(
    fromConfig,
    flags?.map((v) => parseDockerHostFlag(v, env)),
    env,
  );
}
