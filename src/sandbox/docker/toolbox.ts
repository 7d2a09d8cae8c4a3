// The harness's own tools inside every sandbox: the machine's static busybox in a read-only volume
// mounted at /.benchrig. The container's PID 1, its keep-alive, runs from it, and so does every
// grading command and the timeout killer, so an agent that replaces /bin/sh, `test`, `[` or `cat` in
// its image changes nothing the harness relies on. The agent (root, no capabilities) cannot write to a
// read-only mount, unmount it or cover it, and cannot rename or remove its mount point.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import type Docker from 'dockerode';
import { SandboxError } from '../../errors.ts';
import { DEFAULT_DEADLINE_MS, docker, dockerError, dockerMessage, statusOf, withDeadline } from './client.ts';
import { pathExists, withHelperContainer } from './helper-container.ts';
import type * as tar from 'tar-stream';

export const TOOLBOX_MOUNT = '/.benchrig';
export const TOOLBOX_SHELL = `${TOOLBOX_MOUNT}/busybox`;
/** Applets as symlinks: first on PATH for grading commands. */
export const TOOLBOX_BIN = `${TOOLBOX_MOUNT}/bin`;
/**
 * The same busybox, executable and not readable (mode 0111): a process that runs it is one that
 * no process without capabilities may trace or read (the kernel makes it non-dumpable), so the
 * agent, root without capabilities, cannot write into the keep-alive it runs as PID 1.
 */
export const TOOLBOX_INIT = `${TOOLBOX_MOUNT}/init/busybox`;
const READY = 'ready';
const FILL_MOUNT = '/benchrig-toolbox';
export const TOOLBOX_LABEL = 'benchrig.toolbox';
/** What the volume holds, in its name: a volume made by an earlier benchrig without `init/` is not this one. */
const LAYOUT = 2;

/**
 * The keep-alive's script, as PID 1 (here, and in a Kubernetes pod: kubernetes/objects.ts). It starts
 * no process: it waits in `read` on its stdin (kept open by the engine and written by nobody) and
 * reaps each process handed to it as it exits (its CHLD trap). A read the trap cut short (no input
 * pending) reads again, so that the end before grading finds PID 1 alone; only a stdin at its end
 * makes it sleep a second at a time. The kernel drops every signal a PID 1 has no handler for, from
 * inside its container and, but SIGKILL and SIGSTOP, from outside: it ignores those the shell would
 * catch, so that the agent cannot end it.
 */
export const KEEP_ALIVE_SCRIPT = `trap "" TERM INT HUP QUIT USR1 USR2; trap : CHLD; while :; do read -r _ && continue; read -r -t 0 _ || continue; ${TOOLBOX_INIT} sleep 1; done`;

/**
 * The keep-alive of every main sandbox and grading copy, as the container's PID 1 (no other init):
 * KEEP_ALIVE_SCRIPT in the toolbox's shell from its untraceable copy, stdin kept open by the engine
 * (`OpenStdin`); the engine stops it with SIGKILL (its `StopSignal`). Grading ends every other
 * process around it (endInPlace in sandbox.ts).
 */
export const KEEP_ALIVE = [TOOLBOX_INIT, 'sh', '-c', KEEP_ALIVE_SCRIPT];

/**
 * The toolbox volume as every container benchrig runs mounts it (sandbox.ts, service-container.ts):
 * read-only, and never seeded from the image's own /.benchrig (NoCopy), so an image cannot fill it.
 */
export const toolboxMount = (volume: string): Docker.MountSettings => ({
  Type: 'volume',
  Source: volume,
  Target: TOOLBOX_MOUNT,
  ReadOnly: true,
  VolumeOptions: { NoCopy: true } as Docker.MountSettings['VolumeOptions'],
});

/** argv that runs `cmd` through the toolbox's shell. */
export const trustedArgv = (cmd: string): string[] => [TOOLBOX_SHELL, 'sh', '-c', cmd];
/** argv that runs `cmd` through the toolbox's untraceable shell: no process of the agent can stop or rewrite it as it runs. */
export const untraceableArgv = (cmd: string): string[] => [TOOLBOX_INIT, 'sh', '-c', cmd];

interface Toolbox {
  file: string;
  hash: string;
}

let local: Toolbox | undefined;

/**
 * The static busybox benchrig brings ($BENCHRIG_BUSYBOX, else /bin/busybox): its hash, read once per
 * process. The file's bytes are not kept: every worker thread asks for the hash (the volume's name),
 * and only filling a volume or an image needs them (toolboxBinary), ~2 MB a thread otherwise.
 */
export function toolbox(): Toolbox {
  if (local) return local;
  const file = process.env.BENCHRIG_BUSYBOX || '/bin/busybox';
  local = { file, hash: hashFile(file) };
  return local;
}

/** The bytes of the busybox `toolbox()` hashed, read again; refused if the file changed since. */
export function toolboxBinary(box: Toolbox): Buffer {
  const binary = readBusybox(box.file);
  if (hashOf(binary) !== box.hash)
    throw new SandboxError(
      `${box.file} changed while benchrig ran (its toolbox is named by the busybox it found first): run again`,
      undefined,
      false,
    );
  return binary;
}

const hashOf = (binary: Buffer) => createHash('sha256').update(binary).digest('hex').slice(0, 16);

/** hashOf the file, read 64 KB at a time (its program headers are in the first block, checked there). */
function hashFile(file: string): string {
  const hash = createHash('sha256');
  const block = Buffer.alloc(64 * 1024);
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    for (let n = readSync(fd, block), first = true; n > 0; n = readSync(fd, block), first = false) {
      if (first && !isStaticElf(block.subarray(0, n))) throw notStatic(file);
      hash.update(block.subarray(0, n));
    }
  } catch (err) {
    if (err instanceof SandboxError) throw err;
    throw unreadable(file, err);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return hash.digest('hex').slice(0, 16);
}

function readBusybox(file: string): Buffer {
  let binary: Buffer;
  try {
    binary = readFileSync(file);
  } catch (err) {
    throw unreadable(file, err);
  }
  if (!isStaticElf(binary)) throw notStatic(file);
  return binary;
}

const unreadable = (file: string, err: unknown) =>
  new SandboxError(
    `benchrig needs a static busybox at ${file} for its sandboxes (apt-get install busybox-static): ${(err as Error).message}`,
    err,
    false,
  );

const notStatic = (file: string) =>
  new SandboxError(
    `${file} is not a statically linked busybox: install busybox-static or set BENCHRIG_BUSYBOX`,
    undefined,
    false,
  );

/** Its applets, asked of it only when a toolbox volume is filled (a process spawned: ~0.1 s of CPU). */
const appletsOf = (box: Toolbox): string[] =>
  execFileSync(box.file, ['--list'], { encoding: 'utf8' })
    .split('\n')
    .filter((a) => /^[a-zA-Z0-9_.[-]+$/.test(a));

export const toolboxVolumeName = () => `benchrig-toolbox-${toolbox().hash}-v${LAYOUT}`;

/** An ELF file without a PT_INTERP program header needs no dynamic loader. */
function isStaticElf(b: Buffer): boolean {
  if (b.length < 64 || b.readUInt32BE(0) !== 0x7f454c46) return false;
  const is64 = b[4] === 2;
  const le = b[5] === 1;
  const u16 = (o: number) => (le ? b.readUInt16LE(o) : b.readUInt16BE(o));
  const u32 = (o: number) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
  const phoff = is64 ? Number(le ? b.readBigUInt64LE(32) : b.readBigUInt64BE(32)) : u32(28);
  const phentsize = u16(is64 ? 54 : 42);
  const phnum = u16(is64 ? 56 : 44);
  for (let i = 0; i < phnum; i++) if (u32(phoff + i * phentsize) === 3) return false; // PT_INTERP
  return true;
}

const ready = new WeakMap<Docker, Promise<string>>();

/**
 * The toolbox volume on `client`'s daemon, created and filled once (content-addressed, so it is
 * shared by every run with the same busybox and never swept with a run). Returns its name.
 */
export function ensureToolbox(image: string, client: Docker = docker()): Promise<string> {
  let p = ready.get(client);
  if (!p) {
    p = fill(image, client);
    ready.set(client, p);
    p.catch(() => ready.delete(client));
  }
  return p;
}

/**
 * An empty volume made once the toolbox volume is whole: every later process and worker thread
 * (each has its own client) knows it from two inspections, without a helper container.
 */
export const toolboxMarkerName = () => `${toolboxVolumeName()}-${READY}`;

async function fill(image: string, client: Docker): Promise<string> {
  const box = toolbox();
  const name = toolboxVolumeName();
  const labels = { [TOOLBOX_LABEL]: box.hash };
  try {
    if (await volumesExist(client, [name, toolboxMarkerName()])) return name;
    await withDeadline(
      client.createVolume({ Name: name, Labels: labels }),
      DEFAULT_DEADLINE_MS,
      `create volume ${name}`,
    );
    const helper = {
      image,
      purpose: 'toolbox helper',
      labels,
      mounts: [{ Type: 'volume' as const, Source: name, Target: FILL_MOUNT }],
    };
    await withHelperContainer(client, helper, async (c) => {
      if (await pathExists(c, `${FILL_MOUNT}/${READY}`)) return;
      await withDeadline(
        c.putArchive((await pack(box)) as unknown as NodeJS.ReadableStream, { path: FILL_MOUNT }),
        DEFAULT_DEADLINE_MS * 2,
        'fill toolbox',
      );
    });
    await withDeadline(
      client.createVolume({ Name: toolboxMarkerName(), Labels: labels }),
      DEFAULT_DEADLINE_MS,
      `create volume ${toolboxMarkerName()}`,
    );
    return name;
  } catch (err) {
    if (err instanceof SandboxError) throw err;
    throw dockerError(`preparing the sandbox toolbox volume ${name} failed: ${dockerMessage(err)}`, err);
  }
}

/** Whether every volume is there (404: not); other failures throw. */
async function volumesExist(client: Docker, names: string[]): Promise<boolean> {
  const found = await Promise.all(
    names.map((n) =>
      withDeadline(client.getVolume(n).inspect(), DEFAULT_DEADLINE_MS, `inspect volume ${n}`).then(
        () => true,
        (err: unknown) => {
          if (statusOf(err) === 404) return false;
          throw err;
        },
      ),
    ),
  );
  return found.every(Boolean);
}

/** busybox, its untraceable copy in init/, its applets as symlinks in bin/, and `ready` last: a tar is extracted in order. (tar-stream loads only here: most processes never fill a toolbox.) */
async function pack(box: Toolbox): Promise<tar.Pack> {
  const p = (await import('tar-stream')).pack();
  const owner = { uid: 0, gid: 0 };
  const binary = toolboxBinary(box);
  p.entry({ ...owner, name: 'busybox', type: 'file', mode: 0o755 }, binary);
  p.entry({ ...owner, name: 'init', type: 'directory', mode: 0o755 });
  p.entry({ ...owner, name: 'init/busybox', type: 'file', mode: 0o111 }, binary);
  p.entry({ ...owner, name: 'bin', type: 'directory', mode: 0o755 });
  for (const a of appletsOf(box))
    p.entry({ ...owner, name: `bin/${a}`, type: 'symlink', linkname: '../busybox', mode: 0o777 });
  p.entry({ ...owner, name: READY, type: 'file', mode: 0o644 }, box.hash);
  p.finalize();
  return p;
}
