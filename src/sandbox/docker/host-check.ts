// Is a Docker engine there? One clear message naming it, the cause and where its address came from
// (exit 3) instead of a stack trace.
import { BenchrigError } from '../../errors.ts';
import { withDeadline } from './client.ts';
import { unreachableMessage } from './diagnose.ts';
import { clientFor, type DockerHostSpec } from './hosts.ts';

/** Throws BenchrigError naming the host (exit 3) when it does not answer, TLS problems included. */
export async function checkHost(host: DockerHostSpec, timeoutMs = 5_000): Promise<void> {
  const client = clientFor(host); // unreadable TLS files: a config error (exit 2)
  try {
    await withDeadline(client.ping(), timeoutMs, `ping ${host.url}`);
  } catch (err) {
    const address = { url: host.url, source: host.source ?? 'a Docker host of the run' };
    throw new BenchrigError('docker_unavailable', unreachableMessage(address, err, timeoutMs));
  }
}
