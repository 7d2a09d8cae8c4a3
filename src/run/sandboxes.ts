// What every sandboxed trial of a run shares: a reachable daemon, the image (built offline when
// missing), a sweep of what dead runs left, and the run's read-only shared volume.
import { checkDocker } from '../sandbox/client.ts';
import { ensureImage } from '../sandbox/images.ts';
import { createSharedVolume, removeVolume } from '../sandbox/shared.ts';
import { sweep } from '../sandbox/sweep.ts';
import type { SandboxSpec } from '../sandbox/types.ts';
import type { RunConsole } from './console.ts';

export interface SharedResources {
  createVolume(runId: string, sourceDir: string): Promise<string>;
  cleanup(runId: string, volume: string | null): Promise<void>;
}

export async function prepareSandboxes(spec: SandboxSpec, console: RunConsole): Promise<SharedResources> {
  await checkDocker();
  await ensureImage({ image: spec.image, build: spec.build }, { onProgress: (line: string) => console.info(line) });
  const removed = await sweep({});
  if (removed > 0) console.info(`removed ${removed} sandbox(es) left by runs that are gone`);
  return {
    createVolume: (runId, sourceDir) => createSharedVolume(runId, sourceDir, spec.image),
    async cleanup(runId, volume) {
      await sweep({ runId });
      if (volume) await removeVolume(volume);
    },
  };
}
