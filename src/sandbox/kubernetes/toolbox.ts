// The harness's toolbox on Kubernetes (docs/kubernetes.md#the-toolbox): the same static busybox as
// Docker's toolbox volume (sandbox/docker/toolbox.ts), as a `FROM scratch` image pushed to the run's
// registry; each pod's init container copies it into a folder the pod mounts read-only at
// /.benchrig, where grading, copies and restart find their shell and tools.
import type Docker from 'dockerode';
import type { Readable } from 'node:stream';
import * as tar from 'tar-stream';
import { SandboxError } from '../../errors.ts';
import { docker } from '../docker/client.ts';
import { toolbox, toolboxBinary } from '../docker/toolbox.ts';
import { clusterImage, pushImage } from './images.ts';

/** The toolbox's local tag: content-addressed by busybox's hash. */
const localTag = (): string => `benchrig/toolbox:${toolbox().hash}`;

/** The reference the pods' init containers pull. */
export const toolboxImage = (registry: string): string => clusterImage(registry, localTag());

const ready = new Map<string, Promise<string>>();

/** Builds the toolbox image here (once) and pushes it to the registry; its reference. */
export function ensureToolboxImage(registry: string, client: Docker = docker()): Promise<string> {
  let p = ready.get(registry);
  if (!p) {
    p = build(client).then(() => pushImage(localTag(), registry, client));
    ready.set(registry, p);
    p.catch(() => ready.delete(registry));
  }
  return p;
}

async function build(client: Docker): Promise<void> {
  const box = toolbox();
  const context = tar.pack();
  context.entry({ name: 'Dockerfile' }, 'FROM scratch\nCOPY busybox /busybox\n');
  context.entry({ name: 'busybox', mode: 0o755 }, toolboxBinary(box));
  context.finalize();
  try {
    const stream = (await client.buildImage(context as unknown as NodeJS.ReadableStream, {
      t: localTag(),
      labels: { 'benchrig.toolbox': box.hash },
    })) as Readable;
    const error = await new Promise<string | null>((resolve, reject) => {
      let failed: string | null = null;
      client.modem.followProgress(
        stream,
        (err: Error | null) => (err ? reject(err) : resolve(failed)),
        (e: { error?: string }) => void (e.error ? (failed ??= e.error) : undefined),
      );
    });
    if (error) throw new Error(error);
  } catch (err) {
    throw new SandboxError(
      `building the toolbox image failed: ${err instanceof Error ? err.message : String(err)}`,
      err,
      false,
    );
  }
}
