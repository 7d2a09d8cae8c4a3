// The run's images where the cluster pulls them (docs/kubernetes.md#images): built (or pulled) by
// this machine's Docker as on Docker, then, with `--push`, tagged `<registry>/<repository>:<tag>`
// and pushed there; the pods name that reference. Without `--push` they are expected there already.
import type Docker from 'dockerode';
import type { Readable } from 'node:stream';
import { SandboxError } from '../../errors.ts';
import { docker } from '../docker/client.ts';
import { registryAuth } from '../docker/registry-auth.ts';
import type { SampleImages } from '../provider.ts';
import type { ClusterSpec } from '../types.ts';

/** The image as the cluster pulls it: its repository (less any registry host) under `registry`. */
export function clusterImage(registry: string, image: string): string {
  const parts = image.split('/');
  if (parts.length > 1 && /[.:]|^localhost$/.test(parts[0])) parts.shift();
  const ref = parts.join('/');
  return `${registry}/${/[:@]/.test(parts.at(-1) ?? '') ? ref : `${ref}:latest`}`;
}

/** Reads Docker's push stream to its end; the error it carried (a failed push is reported inside it), or null. */
function follow(client: Docker, stream: Readable): Promise<string | null> {
  return new Promise((resolve, reject) => {
    let error: string | null = null;
    client.modem.followProgress(
      stream,
      (err: Error | null) => (err ? reject(err) : resolve(error)),
      (e: { error?: string; errorDetail?: { message?: string } }) => {
        if (e.error || e.errorDetail) error ??= (e.errorDetail?.message ?? e.error ?? 'unknown error').trim();
      },
    );
  });
}

/** Tags `image` for the registry and pushes it; the reference the cluster pulls. */
export async function pushImage(image: string, registry: string, client: Docker = docker()): Promise<string> {
  const ref = clusterImage(registry, image);
  const at = ref.lastIndexOf(':');
  const [repo, tag] = ref.includes('@') ? [ref, undefined] : [ref.slice(0, at), ref.slice(at + 1)];
  try {
    await client.getImage(image).tag({ repo, ...(tag ? { tag } : {}) });
    // The Docker config file's credentials for the registry, else none (the API wants the header anyway).
    const { auth, registry: host } = await registryAuth(ref);
    const stream = (await client.getImage(ref).push({ authconfig: auth ?? { serveraddress: host } })) as Readable;
    const error = await follow(client, stream);
    if (error) throw new Error(error);
  } catch (err) {
    throw new SandboxError(
      `pushing ${image} to ${registry} failed: ${err instanceof Error ? err.message : String(err)}`,
      err,
      false,
    );
  }
  return ref;
}

/** The run's sample images, pushed to the registry once each (per process) when the run pushes. */
export function clusterImages(inner: SampleImages, cluster: ClusterSpec, client: Docker = docker()): SampleImages {
  const pushed = new Map<string, Promise<string>>();
  const push = (image: string): Promise<string> => {
    let p = pushed.get(image);
    if (!p) {
      p = pushImage(image, cluster.registry, client);
      pushed.set(image, p);
      p.catch(() => pushed.delete(image));
    }
    return p;
  };
  return {
    ...inner,
    async exists(image) {
      if (!(await inner.exists(image))) return false;
      if (cluster.push) await push(image);
      return true;
    },
    async build(tag, dir, opts) {
      await inner.build(tag, dir, opts);
      if (cluster.push) await push(tag);
    },
    async pull(image, opts) {
      await inner.pull(image, opts);
      if (cluster.push) await push(image);
    },
  };
}
