// What a daemon did to benchrig's containers while they lived, for blame (docs/sandboxes.md): one Docker
// events stream per daemon and process. Its break marks the daemon as gone (a daemon that stops
// closes it; one that comes back is a new epoch, and what it says of a sandbox made before is not
// evidence against the agent), and its `kill` events name the containers Docker itself killed (its
// API or its shutdown; the agent has no Docker access, so a kill event is never the agent's).
import type Docker from 'dockerode';
import { freshClient, withDeadline } from './client.ts';
import { LABEL } from './labels.ts';

const OPEN_DEADLINE_MS = 5_000;
/** Kill times kept per daemon; the oldest go first (a sandbox asks right after its failure). */
const MAX_KILLS = 10_000;

interface Watch {
  /** Counts the streams opened; a sandbox is on the same daemon while this is unchanged and `open`. */
  epoch: number;
  open: boolean;
  opening?: Promise<number | undefined>;
  /** Container id → when Docker last killed it (ms since the epoch, sub-ms kept as a fraction). */
  kills: Map<string, number>;
}

const watches = new WeakMap<Docker, Watch>();
/** Containers benchrig is killing itself (the disk limit, grading's restart): their next kill event is ours. */
const ownKills = new Set<string>();

/** Before benchrig kills a container itself: that kill is the harness's doing, not a sign the host is going. */
export function expectOwnKill(id: string): void {
  ownKills.add(id);
  if (ownKills.size > MAX_KILLS) ownKills.delete(ownKills.values().next().value ?? id);
}

/** The kill did not happen (the container was not running): no event of it will come. */
export function cancelOwnKill(id: string): void {
  ownKills.delete(id);
}

/**
 * Watches `client`'s daemon (opened once, again after a break) and resolves with the epoch a new
 * sandbox records; undefined when the events stream cannot be opened (then nothing is known).
 */
export function watchDaemon(client: Docker): Promise<number | undefined> {
  let w = watches.get(client);
  if (!w) watches.set(client, (w = { epoch: 0, open: false, kills: new Map() }));
  if (w.open) return Promise.resolve(w.epoch);
  w.opening ??= openStream(client, w).finally(() => (w.opening = undefined));
  return w.opening;
}

/** Is the daemon still the one of `epoch` (its events stream never broke since)? Unknown epochs count as yes. */
export function sameDaemon(client: Docker, epoch: number | undefined): boolean {
  if (epoch === undefined) return true;
  const w = watches.get(client);
  return !!w && w.open && w.epoch === epoch;
}

/** Did Docker kill this container at or after `sinceMs` (its current start)? */
export function killedByDocker(client: Docker, id: string, sinceMs: number): boolean {
  const at = watches.get(client)?.kills.get(id);
  return at !== undefined && at >= sinceMs;
}

/** "2026-12-01T22:13:33.369176908Z" → ms since the epoch with the sub-ms part as a fraction (NaN if unparsable). */
export function timeMs(iso: string): number {
  const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/.exec(iso);
  if (!m) return NaN;
  return Date.parse(`${m[1]}${m[3]}`) + Number(`0.${m[2] ?? '0'}`) * 1000;
}

async function openStream(client: Docker, w: Watch): Promise<number | undefined> {
  // The label with its value, and both names of a removal (Docker's `destroy`, Podman's `remove`): every
  // engine that speaks the API filters the same way then (Podman matches a label filter by key=value only).
  const filters = { type: ['container' as const], event: ['kill', 'destroy', 'remove'], label: [`${LABEL.marker}=1`] };
  let stream: NodeJS.ReadableStream & { socket?: { unref?(): void } };
  try {
    // Its own connection (never one a request hands back), with no idle timeout.
    stream = await withDeadline(freshClient(client).getEvents({ filters }), OPEN_DEADLINE_MS, 'events');
  } catch {
    return undefined;
  }
  stream.socket?.unref?.(); // never what keeps a process alive
  w.epoch++;
  w.open = true;
  let rest = '';
  stream.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) record(w, line);
  });
  const broken = () => void (w.open = false);
  stream.once('end', broken);
  stream.once('close', broken);
  stream.once('error', broken);
  return w.epoch;
}

function record(w: Watch, line: string): void {
  let e: { Action?: string; id?: string; Actor?: { ID?: string }; time?: number; timeNano?: number };
  try {
    e = JSON.parse(line) as typeof e;
  } catch {
    return;
  }
  const id = e.Actor?.ID ?? e.id;
  if (!id) return;
  if (e.Action === 'destroy' || e.Action === 'remove') return void (w.kills.delete(id), ownKills.delete(id));
  if (e.Action !== 'kill') return;
  if (ownKills.delete(id)) return;
  w.kills.delete(id);
  w.kills.set(id, e.timeNano !== undefined ? e.timeNano / 1e6 : (e.time ?? 0) * 1000);
  const oldest = w.kills.size > MAX_KILLS ? w.kills.keys().next() : undefined;
  if (oldest && !oldest.done) w.kills.delete(oldest.value);
}
