// vitest globalSetup: make sure the busybox sandbox image exists (built offline once, then reused).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureImage } from '../../src/sandbox/docker/images.ts';
import { TEST_IMAGE, requireDocker } from './docker.ts';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export default async function setup(): Promise<void> {
  if (!(await requireDocker())) {
    console.warn('[benchrig tests] Docker is not reachable: Docker tests will be skipped');
    return;
  }
  await ensureImage({ image: TEST_IMAGE, build: path.join(repo, 'sandboxes/busybox'), trusted: true });
}
