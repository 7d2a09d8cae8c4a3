// The named volumes a trial's services share (docs/sandboxes.md#networks-per-trial): one Docker
// volume per name and trial, labelled like the trial's containers so that the sweep finds them.
import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import { DEFAULT_DEADLINE_MS, dockerError, dockerMessage, sleep, statusOf, withDeadline } from './client.ts';
import { copyIn } from './copy.ts';
import { withHelperContainer } from './helper-container.ts';
import { buildLabels, LABEL } from './labels.ts';
import { removeContainer } from './remove-container.ts';
import type { TrialVolume } from '../provider.ts';
import type { SandboxLabels } from '../types.ts';

const REMOVE_ATTEMPTS = 3;
const BACKOFF_MS = 300;

/** Docker's volume names: a letter or digit, then letters, digits, `_`, `.`, `-`. */
const slug = (text: string, max: number) => text.replace(/[^a-zA-Z0-9_.-]/g, '-').slice(0, max);

/** Creates one labelled volume per name; on a failure, those already made are removed and it throws. */
export async function createTrialVolumes(
  client: Docker,
  labels: SandboxLabels,
  names: readonly string[],
): Promise<TrialVolume[]> {
  const made: TrialVolume[] = [];
  const suffix = randomBytes(3).toString('hex');
  try {
    for (const name of names) {
      const source = `benchrig-${slug(labels.sessionId, 40)}-${slug(name, 40)}-${suffix}`;
      await withDeadline(
        client.createVolume({ Name: source, Labels: { ...buildLabels(labels), [VOLUME_LABEL]: name } }),
        DEFAULT_DEADLINE_MS,
        `create volume ${source}`,
      );
      made.push({ name, source });
    }
    return made;
  } catch (err) {
    for (const v of made) await removeTrialVolume(client, v.source).catch(() => undefined);
    throw dockerError(`could not create the trial's volumes: ${dockerMessage(err)}`, err);
  }
}

/** The name the environment gives the volume (its engine name is unique per trial). */
const VOLUME_LABEL = 'benchrig.volume';

/**
 * Removes a trial's volume; false when it was gone already. A benchrig container still using it (one
 * whose removal failed) is removed first: it is one of the trial's own services.
 */
export async function removeTrialVolume(client: Docker, source: string): Promise<boolean> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= REMOVE_ATTEMPTS; attempt++) {
    try {
      await withDeadline(client.getVolume(source).remove(), DEFAULT_DEADLINE_MS, `remove volume ${source}`);
      return true;
    } catch (err) {
      if (statusOf(err) === 404) return false;
      lastError = err;
      if (statusOf(err) === 409) await removeUsers(client, source);
      else if (attempt < REMOVE_ATTEMPTS) await sleep(BACKOFF_MS * 2 ** (attempt - 1));
    }
  }
  throw dockerError(`could not remove volume ${source}: ${dockerMessage(lastError)}`, lastError);
}

async function removeUsers(client: Docker, source: string): Promise<void> {
  const filters = JSON.stringify({ volume: [source], label: [LABEL.marker] });
  const users = await withDeadline(client.listContainers({ all: true, filters }), DEFAULT_DEADLINE_MS, 'list').catch(
    () => [],
  );
  // Each gone when this returns (a removal under way is waited for): the next try of the volume says what is left.
  for (const c of users) await removeContainer(client, c.Id).catch(() => undefined);
}

const FILL_MOUNT = '/benchrig-fill';

/**
 * Fills a trial volume with a folder of the task (a compose bind: docs/benchmarks.md#compose-tasks),
 * through a helper container of `image` that never starts: the services mount the trial's copy, so
 * `:ro` holds and the task folder on the host is never written.
 */
export async function fillTrialVolume(
  client: Docker,
  labels: SandboxLabels,
  image: string,
  volume: TrialVolume,
  dir: string,
): Promise<void> {
  const mounts = [{ Type: 'volume' as const, Source: volume.source, Target: FILL_MOUNT }];
  try {
    await withHelperContainer(
      client,
      { image, purpose: `helper filling volume ${volume.name}`, labels: buildLabels(labels), mounts },
      (helper) => copyIn(helper, dir, FILL_MOUNT, FILL_MOUNT), // at the volume itself (copy.ts copyIn)
    );
  } catch (err) {
    throw dockerError(`could not copy ${dir} into the trial's volume: ${dockerMessage(err)}`, err);
  }
}
