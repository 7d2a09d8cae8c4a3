// How many network creations and removals this process asks one engine for at once
// (docs/sandboxes.md#networks-per-trial). The daemon makes networks one at a time under one lock
// (bridge, iptables), so forty trials asking together would each wait behind the others inside
// the daemon, where their deadline runs; waiting here instead costs no throughput and leaves every
// call its whole deadline.
import type Docker from 'dockerode';

/** Network calls in flight per engine and process (a worker thread is a process of its own here). */
export const NETWORK_LANES = 2;

interface Lanes {
  busy: number;
  waiting: Array<() => void>;
}

const byEngine = new WeakMap<Docker, Lanes>();

/** Runs `call` once one of the engine's lanes is free; the lane is given back however it ends. */
export async function inNetworkLane<T>(client: Docker, call: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  let lanes = byEngine.get(client);
  if (!lanes) byEngine.set(client, (lanes = { busy: 0, waiting: [] }));
  const own = lanes;
  if (own.busy >= NETWORK_LANES) {
    await new Promise<void>((resolve, reject) => {
      const go = () => (signal?.removeEventListener('abort', stop), resolve());
      const stop = () => {
        own.waiting.splice(own.waiting.indexOf(go), 1);
        reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted while waiting for a network lane'));
      };
      own.waiting.push(go);
      signal?.addEventListener('abort', stop, { once: true });
    });
  } else own.busy++;
  try {
    return await call();
  } finally {
    const next = own.waiting.shift();
    if (next) next();
    else own.busy--;
  }
}
