// The toolbox volume against the real daemon: filled once, known to every later client (another
// worker thread or process) from its marker volume without a helper container, and filled again
// when it is missing or was left half filled, whatever the marker says.
import { copyFileSync, appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dockerode } from '../../../../src/sandbox/docker/client.ts';
import { createOptions, DockerSandbox } from '../../../../src/sandbox/docker/sandbox.ts';
import {
  ensureToolbox,
  TOOLBOX_LABEL,
  toolbox,
  toolboxMarkerName,
  toolboxVolumeName,
} from '../../../../src/sandbox/docker/toolbox.ts';
import { requireDocker, TEST_IMAGE, testRunId, testSpec } from '../../../support/docker.ts';

const ok = await requireDocker();
const runId = testRunId('toolbox-volume');
const dir = mkdtempSync(join(tmpdir(), 'toolbox-volume-'));
const before = process.env.BENCHRIG_BUSYBOX;

/** A client of its own, as another worker thread has: nothing of this one's toolbox is known to it. */
const newClient = (): Docker => new (Dockerode())();

/** Toolbox helper containers created on the daemon while `fn` runs. */
async function helpersDuring(client: Docker, fn: () => Promise<unknown>): Promise<number> {
  const start = Date.now();
  const since = Math.floor(start / 1000) - 1;
  await fn();
  const until = Math.floor(Date.now() / 1000) + 1;
  const events = await client.getEvents({
    since,
    until,
    filters: { type: ['container'], event: ['create'], label: [TOOLBOX_LABEL] },
  });
  const text = await new Promise<string>((resolve) => {
    let out = '';
    events.on('data', (c: Buffer) => (out += c.toString()));
    events.on('end', () => resolve(out));
  });
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { timeNano: number; Actor: { Attributes: Record<string, string> } })
    .filter((e) => e.timeNano / 1e6 >= start - 50 && e.Actor.Attributes[TOOLBOX_LABEL] === toolbox().hash).length;
}

async function removeVolumes(client: Docker) {
  for (const name of [toolboxVolumeName(), toolboxMarkerName()])
    await client
      .getVolume(name)
      .remove()
      .catch(() => undefined);
}

/** A sandbox starts on this toolbox and its trusted shell runs from it. */
async function trustedShellWorks(client: Docker): Promise<string> {
  const spec = testSpec();
  const volume = await ensureToolbox(TEST_IMAGE, client);
  const container = await client.createContainer(createOptions(spec, { runId, sessionId: `${runId}.shell` }, volume));
  try {
    await container.start();
    const sb = new DockerSandbox(container, spec.image, spec.workdir, spec, client);
    return (await sb.exec('echo from-toolbox', { trusted: true })).stdout;
  } finally {
    await container.remove({ force: true });
  }
}

describe.skipIf(!ok)('the toolbox volume', () => {
  beforeAll(() => {
    // A busybox of its own (same program, other bytes): its own content-addressed volumes, which
    // this test may remove without touching the toolbox every other test uses.
    const file = join(dir, 'busybox');
    copyFileSync(process.env.BENCHRIG_BUSYBOX || '/bin/busybox', file);
    appendFileSync(file, `toolbox-volume-test ${runId}`);
    process.env.BENCHRIG_BUSYBOX = file;
  });

  afterAll(async () => {
    await removeVolumes(newClient());
    if (before === undefined) delete process.env.BENCHRIG_BUSYBOX;
    else process.env.BENCHRIG_BUSYBOX = before;
    rmSync(dir, { recursive: true, force: true });
  });

  it('is filled once; a later client knows it from the marker without starting a helper container', async () => {
    const first = newClient();
    expect(await helpersDuring(first, () => ensureToolbox(TEST_IMAGE, first))).toBe(1);
    await first.getVolume(toolboxMarkerName()).inspect(); // made once the volume is whole
    const second = newClient();
    expect(await helpersDuring(second, () => ensureToolbox(TEST_IMAGE, second))).toBe(0);
    expect(await trustedShellWorks(second)).toBe('from-toolbox\n');
  });

  it('a toolbox volume removed under its marker is made and filled again', async () => {
    const client = newClient();
    await ensureToolbox(TEST_IMAGE, client);
    await client.getVolume(toolboxVolumeName()).remove();
    const next = newClient();
    expect(await helpersDuring(next, () => ensureToolbox(TEST_IMAGE, next))).toBe(1);
    expect(await trustedShellWorks(next)).toBe('from-toolbox\n');
  });

  it('a volume left half filled (no marker, no ready file) is filled before any sandbox uses it', async () => {
    const client = newClient();
    await removeVolumes(client);
    await client.createVolume({ Name: toolboxVolumeName(), Labels: { [TOOLBOX_LABEL]: toolbox().hash } });
    expect(await trustedShellWorks(newClient())).toBe('from-toolbox\n');
    await client.getVolume(toolboxMarkerName()).inspect();
  });
});
