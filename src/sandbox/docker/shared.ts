// The run's shared volume (docs/benchmarks.md [sandbox.shared]): filled once, mounted read-only in every sample.
import type Docker from 'dockerode';
import { SandboxError } from '../../errors.ts';
import { DEFAULT_DEADLINE_MS, docker, dockerError, dockerMessage, statusOf, withDeadline } from './client.ts';
import { copyIn } from './copy.ts';
import { withHelperContainer } from './helper-container.ts';
import { buildLabels } from './labels.ts';

const FILL_MOUNT = '/benchrig-shared';

export const sharedVolumeName = (runId: string) => `benchrig-shared-${runId.replace(/[^a-zA-Z0-9_.-]/g, '-')}`;

/**
 * Create the labelled volume and copy `sourceDir`'s contents into it through a helper container of
 * `image` (sandbox/docker/helper-container.ts). Returns the volume name.
 */
export async function createSharedVolume(
  runId: string,
  sourceDir: string,
  image: string,
  client: Docker = docker(),
): Promise<string> {
  const name = sharedVolumeName(runId);
  const labels = buildLabels({ runId, sessionId: 'shared' });
  try {
    await withDeadline(
      client.createVolume({ Name: name, Labels: labels }),
      DEFAULT_DEADLINE_MS,
      `create volume ${name}`,
    );
    const mounts = [{ Type: 'volume' as const, Source: name, Target: FILL_MOUNT }];
    await withHelperContainer(
      client,
      { image, purpose: 'shared-volume helper', labels, mounts },
      (helper) => copyIn(helper, sourceDir, FILL_MOUNT, FILL_MOUNT), // at the volume itself (copy.ts copyIn)
    );
    return name;
  } catch (err) {
    await removeVolume(name, client).catch(() => undefined);
    if (err instanceof SandboxError) throw err;
    throw dockerError(`filling the shared volume ${name} failed: ${dockerMessage(err)}`, err);
  }
}

/** Remove a volume, tolerating it being gone already. */
export async function removeVolume(name: string, client: Docker = docker()): Promise<void> {
  try {
    await withDeadline(client.getVolume(name).remove(), DEFAULT_DEADLINE_MS, `remove volume ${name}`);
  } catch (err) {
    if (statusOf(err) === 404) return;
    throw dockerError(`removing volume ${name} failed: ${dockerMessage(err)}`, err);
  }
}
