// What a path the environment copies in (a compose bind's source) is, when it is neither a file nor a
// folder: a FIFO, a socket or a device, whose read would wait for a writer or never end.
import type { Stats } from 'node:fs';

/** `a FIFO (named pipe)`, `a socket`, …; null for a file or a folder (a symbolic link: see its target). */
export function otherThanFileOrFolder(
  st: Pick<Stats, 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice' | 'isSymbolicLink'>,
): string | null {
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSymbolicLink()) return 'a symbolic link';
  return null;
}
