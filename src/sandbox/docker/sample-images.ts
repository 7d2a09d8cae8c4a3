// Images of samples that bring their own sandbox (docs/benchmarks.md#a-sandbox-per-sample), on every
// Docker engine an environment may start on: found, built (labelled for `sandbox prune`), pulled.
import type Docker from 'dockerode';
import { dockerError, dockerMessage } from './client.ts';
import { imageHasFile } from './helper-container.ts';
import { ensureImage, imageExists, inspectImage } from './images.ts';
import { ENV_IMAGE_LABEL, ENV_LABEL } from './prune.ts';
import type { SampleImages } from '../provider.ts';
import { pullImage } from './pull.ts';

/** The sample images of a run whose environments start on `clients` (the first is asked what an image holds). */
export function sampleImages(clients: Docker[]): SampleImages {
  return {
    async exists(image) {
      for (const c of clients) if (!(await imageExists(image, c))) return false;
      return true;
    },
    async build(tag, dir, opts) {
      for (const client of clients) {
        // The benchmark's own image first, where it has a build: a sample's Dockerfile is often
        // FROM it, and on a fleet host it may not be made yet (a base with a build is built, not pulled).
        if (opts.base?.build)
          await ensureImage(
            { image: opts.base.image, build: opts.base.build, trusted: true },
            { client, network: !!opts.base.network },
          );
        // A sample's build context is third-party content: its prepare.sh never runs here.
        await ensureImage(
          { image: tag, build: dir },
          {
            client,
            timeoutMs: opts.timeoutMs,
            labels: { [ENV_LABEL]: opts.benchmark, [ENV_IMAGE_LABEL]: tag },
            onProgress: opts.onProgress,
            network: opts.network,
            ...(opts.dockerfile ? { dockerfile: opts.dockerfile } : {}),
            ...(opts.target ? { target: opts.target } : {}),
            ...(opts.args ? { buildArgs: opts.args } : {}),
          },
        );
      }
    },
    async pull(image, opts) {
      const { onProgress, ...rest } = opts;
      // On a fleet, the first host's progress stands for all.
      await Promise.all(
        clients.map((client, i) =>
          pullImage(image, { ...rest, client, ...(onProgress && i === 0 ? { onProgress } : {}) }),
        ),
      );
    },
    async workdir(image) {
      const info = await inspectImage(clients[0], image);
      return info.Config?.WorkingDir || '/';
    },
    async hasFile(image, path) {
      try {
        return await imageHasFile(image, path, clients[0]);
      } catch (err) {
        throw dockerError(dockerMessage(err), err);
      }
    },
  };
}
