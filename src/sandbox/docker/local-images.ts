// `benchrig sandbox build | prune` (docs/cli.md#sandbox): the images of this machine's Docker, which
// every provider builds with (Kubernetes pushes them from here), its engine checked first (exit 3).
import { checkDocker } from './client.ts';
import { ensureImage } from './images.ts';

/** Builds `spec.image` from `spec.build` (a folder the user named: its prepare.sh may run here), unless it is here and not `rebuild`. */
export async function buildImageHere(
  spec: { image: string; build?: string },
  opts: { rebuild: boolean; network: boolean; onProgress: (line: string) => void },
): Promise<void> {
  await checkDocker();
  await ensureImage({ ...spec, trusted: true }, opts);
}

/** Removes the images benchrig built for samples' own environments, `olderThan` (e.g. 7d) and of `benchmark` when given. */
export async function pruneSampleImages(opts: { olderThan?: string; benchmark?: string }) {
  const { parseDuration, pruneEnvImages } = await import('./prune.ts');
  const olderThanMs = opts.olderThan !== undefined ? parseDuration(opts.olderThan) : undefined;
  await checkDocker();
  return pruneEnvImages({ olderThanMs, ...(opts.benchmark ? { benchmark: opts.benchmark } : {}) });
}
