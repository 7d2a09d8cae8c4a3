// Is a Docker engine there? One clear message naming it (exit 3) instead of a stack trace.
import { BenchrigError, describe } from '../errors.ts';
import { LOCAL_REMEDY, REMOTE_REMEDY, withDeadline } from './client.ts';
import { clientFor, type DockerHostSpec } from './hosts.ts';

/** Throws BenchrigError naming the host (exit 3) when it does not answer, TLS problems included. */
export async function checkHost(host: DockerHostSpec, timeoutMs = 5_000): Promise<void> {
  const client = clientFor(host); // unreadable TLS files: a config error (exit 2)
  try {
    await withDeadline(client.ping(), timeoutMs, `ping ${host.url}`);
  } catch (err) {
    const remedy = host.url.startsWith('unix:') || host.url.startsWith('/') ? LOCAL_REMEDY : REMOTE_REMEDY;
    throw new BenchrigError(
      'docker_unavailable',
      `Docker is not reachable at ${host.url}: ${describe(err).split('\n')[0]}. ${remedy}`,
    );
  }
}
