// A task's bound file (a compose bind of a file: docs/benchmarks.md#compose-tasks), read to be copied
// into a service. Load checked it was a file, but it may have become something else since: a FIFO
// whose read waits for a writer (for ever, and a synchronous read with its worker), a socket, a
// device, a symbolic link leading out of the task folder. It is opened without blocking and without
// following a link, and read only when it is still a file.
import { constants, type Stats } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { otherThanFileOrFolder } from '../../environment/file-kind.ts';
import { SandboxError } from '../../errors.ts';

const FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/** Its bytes; a SandboxError (not retryable: the task's doing) naming it when it is no longer a file. */
export async function readBoundFile(source: string): Promise<Buffer> {
  // A socket cannot be opened at all (ENXIO), a link not without following it (ELOOP): lstat names them.
  const before = await lstat(source);
  if (!before.isFile()) throw notAFile(source, before);
  const file = await open(source, FLAGS);
  try {
    const st = await file.stat(); // what was opened, whatever the path names now
    if (!st.isFile()) throw notAFile(source, st);
    return await file.readFile();
  } finally {
    await file.close();
  }
}

function notAFile(source: string, st: Stats): SandboxError {
  const what = otherThanFileOrFolder(st) ?? 'a folder';
  return new SandboxError(
    `bind source ${source} is ${what}, no longer a file: it is not read (a FIFO, socket or device could keep a read waiting for ever)`,
    undefined,
    false,
  );
}
