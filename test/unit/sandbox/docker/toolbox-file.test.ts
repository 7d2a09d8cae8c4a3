// The toolbox's busybox as each thread knows it (src/sandbox/docker/toolbox.ts): its hash names the
// volume, its bytes are read again only to fill one, and a busybox that changed in between is refused
// rather than filled under the old name.
import { createHash } from 'node:crypto';
import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

const before = process.env.BENCHRIG_BUSYBOX;
const dir = mkdtempSync(join(tmpdir(), 'toolbox-file-'));
afterEach(() => {
  if (before === undefined) delete process.env.BENCHRIG_BUSYBOX;
  else process.env.BENCHRIG_BUSYBOX = before;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** toolbox.ts as a new thread loads it, for the busybox at `file`. */
async function fresh(file: string) {
  process.env.BENCHRIG_BUSYBOX = file;
  vi.resetModules();
  return import('../../../../src/sandbox/docker/toolbox.ts');
}

describe("the toolbox's busybox", () => {
  it('is named by its hash, which is all a thread keeps; its bytes are read again to fill a volume', async () => {
    const file = join(dir, 'busybox');
    copyFileSync(before || '/bin/busybox', file);
    const m = await fresh(file);
    const box = m.toolbox();
    const bytes = readFileSync(file);
    expect(box).toEqual({ file, hash: createHash('sha256').update(bytes).digest('hex').slice(0, 16) });
    expect(m.toolboxBinary(box).equals(bytes)).toBe(true);
  });

  it('changed since its hash was taken, it is refused, not filled under the old name', async () => {
    const file = join(dir, 'busybox-changed');
    copyFileSync(before || '/bin/busybox', file);
    const m = await fresh(file);
    const box = m.toolbox();
    appendFileSync(file, 'another busybox');
    expect(() => m.toolboxBinary(box)).toThrow(/changed while benchrig ran/);
  });

  it('a file that is not a static ELF program is refused by name', async () => {
    const file = join(dir, 'not-busybox');
    writeFileSync(file, '#!/bin/sh\necho not busybox\n');
    const m = await fresh(file);
    expect(() => m.toolbox()).toThrow(`${file} is not a statically linked busybox`);
  });
});
