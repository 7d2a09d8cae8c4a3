// A throwaway container: created from an image, never started (Docker's archive API works on a
// stopped container), used, and removed in `finally`. It fills volumes (the toolbox, the shared
// volume), probes what a daemon allows (a storage quota) and reads files out of an image. Every
// call has a deadline (docs/sandboxes.md); its `benchrig.helper` label names the host that made it.
// Never started, it still gets every hardening (hardened.ts), its root read-only and small bounds.
import os from 'node:os';
import type Docker from 'dockerode';
import { DEFAULT_DEADLINE_MS, docker, statusOf, withDeadline } from './client.ts';
import { hardened } from './hardened.ts';

/** A helper runs nothing: bounds far below any sandbox's, in case something ever starts one. */
const HELPER_BOUNDS = { memoryBytes: 64 * 1024 ** 2, cpus: 0.5, pids: 16 };

interface HelperSpec {
  image: string;
  /** What it is for, in deadline messages: `toolbox helper`. */
  purpose: string;
  labels?: Record<string, string>;
  /** Volumes it reaches. */
  mounts?: Docker.MountSettings[];
  storageOpt?: Record<string, string>;
}

/**
 * Create the helper, run `use` on it, remove it whatever happens. A failed create (no such image,
 * a refused option) rejects with Docker's own error, untouched, for the caller to read.
 */
export async function withHelperContainer<T>(
  client: Docker,
  spec: HelperSpec,
  use: (helper: Docker.Container) => Promise<T>,
): Promise<T> {
  const helper = await withDeadline(
    client.createContainer(
      hardened(
        {
          Image: spec.image,
          Entrypoint: ['true'],
          Cmd: [],
          HostConfig: {
            ...(spec.mounts ? { Mounts: spec.mounts } : {}),
            ...(spec.storageOpt ? { StorageOpt: spec.storageOpt } : {}),
          },
        },
        { labels: { ...spec.labels, 'benchrig.helper': os.hostname() }, ...HELPER_BOUNDS },
      ),
    ),
    DEFAULT_DEADLINE_MS,
    `create ${spec.purpose}`,
  );
  try {
    return await use(helper);
  } finally {
    await withDeadline(helper.remove({ force: true }), DEFAULT_DEADLINE_MS, `remove ${spec.purpose}`).catch(
      () => undefined,
    );
  }
}

/** Whether `path` exists in a container (through the archive API: nothing runs). */
export async function pathExists(container: Docker.Container, path: string): Promise<boolean> {
  try {
    // Not infoArchive: dockerode leaves its HEAD answer's socket open, which would hold the process.
    // The archive's stream is dropped unread: only whether it is there matters.
    const archive = await withDeadline(container.getArchive({ path }), DEFAULT_DEADLINE_MS, `stat ${path}`);
    (archive as NodeJS.ReadableStream & { destroy(): void }).destroy();
    return true;
  } catch (err) {
    if (statusOf(err) === 404) return false;
    throw err;
  }
}

/** Whether `image` holds a file at `path`, read from the image, nothing run. Docker's errors reject untouched. */
export function imageHasFile(image: string, path: string, client: Docker = docker()): Promise<boolean> {
  return withHelperContainer(client, { image, purpose: `helper reading ${image}` }, (helper) =>
    pathExists(helper, path),
  );
}
