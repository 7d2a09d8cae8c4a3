// `benchrig run … | head`, or a terminal that closed: stdout or stderr is gone. Node emits the
// write's EPIPE/EIO as an 'error' event, and an unhandled one ends the process in the middle of
// the run (trials unsaved, sandboxes up, run.json left `running`). Nothing can be said on a stream
// that is gone, so its writes are dropped from then on and the run goes on to its report.
import type { Writable } from 'node:stream';

const guarded = new WeakSet<Writable>();

/** Drops every later write to a standard stream once writing to it failed. Idempotent. */
export function guardStdio(streams: Writable[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    if (guarded.has(stream)) continue;
    guarded.add(stream);
    stream.on('error', () => dropWrites(stream));
  }
}

function dropWrites(stream: Writable): void {
  // The callback still runs, so a caller waiting for the write (a flush before exit) goes on.
  stream.write = ((_chunk: unknown, encoding?: unknown, cb?: unknown) => {
    const done = typeof encoding === 'function' ? encoding : cb;
    if (typeof done === 'function') process.nextTick(done);
    return true;
  }) as Writable['write'];
}
