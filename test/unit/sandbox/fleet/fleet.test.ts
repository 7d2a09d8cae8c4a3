// Placement on a fleet of Docker hosts (src/sandbox/fleet/fleet.ts), without Docker: the health check is
// injected (`ping`), and host clients are only created, never called.
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxError } from '../../../../src/errors.ts';
import {
  Fleet,
  registerFleet,
  startOnFleet,
  unregisterFleet,
  type FleetOptions,
  type SandboxSlot,
} from '../../../../src/sandbox/fleet/fleet.ts';
import { HostError } from '../../../../src/sandbox/docker/hosts.ts';
import type { Sandbox, SandboxSpec } from '../../../../src/sandbox/types.ts';
import { defined } from '../../../support/defined.ts';

const A = 'unix:///tmp/benchrig-test-a.sock';
const B = 'unix:///tmp/benchrig-test-b.sock';
const C = 'unix:///tmp/benchrig-test-c.sock';

const fleets: Fleet[] = [];
afterEach(() => {
  for (const f of fleets.splice(0)) f.close();
});

/** A health check that fails for the hosts in `down`. */
const downPing = (down: Set<string>) => async (h: { url: string }) => {
  if (down.has(h.url)) throw new Error('connect ECONNREFUSED');
};

/** A fleet whose hosts answer every ping unless `opts.ping` says otherwise. */
function fleetOf(hosts: Array<[string, number]>, opts: FleetOptions = {}) {
  const fleet = new Fleet(
    hosts.map(([url, capacity]) => ({ url, capacity })),
    { healthIntervalMs: 60_000, ping: downPing(new Set()), ...opts },
  );
  fleets.push(fleet);
  return { fleet };
}

const tick = () => new Promise((r) => setTimeout(r, 0));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Settles `p` within a few ticks, or reports it pending. */
async function state<T>(p: Promise<T>): Promise<{ value?: T; pending?: true; error?: unknown }> {
  let out: { value?: T; pending?: true; error?: unknown } = { pending: true };
  p.then(
    (value) => (out = { value }),
    (error) => (out = { error }),
  );
  for (let i = 0; i < 5; i++) await tick();
  return out;
}

describe('Fleet placement', () => {
  it('places each new sandbox on the host with the most free capacity, ties in the listed order', async () => {
    const { fleet } = fleetOf([
      [A, 2],
      [B, 3],
      [C, 3],
    ]);
    const hosts: string[] = [];
    for (let i = 0; i < 8; i++) hosts.push(defined((await fleet.acquire()).host));
    // B and C (3 free) before A (2 free); a tie goes to the host listed first.
    expect(hosts).toEqual([B, C, A, B, C, A, B, C]);
  });

  it('never exceeds a host capacity; a waiting acquire gets the slot that is given back, on that host', async () => {
    const { fleet } = fleetOf([
      [A, 1],
      [B, 2],
    ]);
    const slots = [await fleet.acquire(), await fleet.acquire(), await fleet.acquire()];
    expect(slots.map((s) => s.host).sort()).toEqual([A, B, B]);
    const waiting = fleet.acquire();
    expect((await state(waiting)).pending).toBe(true);
    defined(slots.find((s) => s.host === A)).release();
    expect((await state(waiting)).value?.host).toBe(A);
    expect(fleet.summary()).toEqual({
      [A]: { capacity: 1, sandboxes: 2, infra_errors: 0, cooldowns: 0 },
      [B]: { capacity: 2, sandboxes: 2, infra_errors: 0, cooldowns: 0 },
    });
  });

  it('the limit (--max-sandboxes) defaults to the total capacity; a lower one caps the fleet', async () => {
    expect(
      fleetOf([
        [A, 2],
        [B, 3],
      ]).fleet.limit,
    ).toBe(5);
    const { fleet } = fleetOf(
      [
        [A, 2],
        [B, 3],
      ],
      { limit: 2 },
    );
    expect(fleet.limit).toBe(2);
    const first = [await fleet.acquire(), await fleet.acquire()];
    expect(first.map((s) => s.host).sort()).toEqual([A, B]);
    const third = fleet.acquire();
    expect((await state(third)).pending).toBe(true);
    first[0].release();
    expect((await state(third)).value?.host).toBeDefined();
  });

  it('a release frees the capacity once, however often it is called', async () => {
    const { fleet } = fleetOf([[A, 1]]);
    const slot = await fleet.acquire();
    slot.release();
    slot.release(); // a second release must not free a slot someone else holds
    const again = await fleet.acquire();
    expect(again.host).toBe(A);
    expect((await state(fleet.acquire())).pending).toBe(true);
  });

  it('aborting a waiting acquire rejects it and gives back nothing it did not get', async () => {
    const { fleet } = fleetOf([[A, 1]]);
    const held = await fleet.acquire();
    const abort = new AbortController();
    const waiting = fleet.acquire(abort.signal);
    abort.abort(new Error('trial over'));
    expect((await state(waiting)).error).toBeInstanceOf(Error);
    // The host is still full: the aborted waiter freed nothing.
    const next = fleet.acquire();
    expect((await state(next)).pending).toBe(true);
    held.release();
    expect((await state(next)).value?.host).toBe(A);
    await expect(fleet.acquire(AbortSignal.abort())).rejects.toBeDefined();
  });
});

describe('Fleet failures', () => {
  it('a host that fails a start cools down for the configured time, its waiters go elsewhere, and it comes back once it answers', async () => {
    const down = new Set<string>();
    const lines: string[] = [];
    const { fleet } = fleetOf(
      [
        [A, 2],
        [B, 1],
      ],
      { cooldownMs: 150, ping: downPing(down), log: (l) => lines.push(l) },
    );
    const [onA, failing, onB] = [await fleet.acquire(), await fleet.acquire(), await fleet.acquire()];
    expect([onA.host, failing.host, onB.host]).toEqual([A, A, B]);
    const w2 = fleet.acquire();
    expect((await state(w2)).pending).toBe(true);

    down.add(A);
    failing.release({ reason: 'create failed', during: 'start' });
    // A has room again but cools down: the waiter stays until B has room, and goes there.
    expect((await state(w2)).pending).toBe(true);
    onB.release();
    expect((await state(w2)).value?.host).toBe(B);
    expect(lines.join('\n')).toContain(`Docker host ${A} taken out of placement`);
    expect(fleet.summary()[A]).toMatchObject({ infra_errors: 1, cooldowns: 1 });

    // While A cools down nothing lands there; B is full, so a new acquire waits rather than going to A.
    const w3 = fleet.acquire();
    expect((await state(w3)).pending).toBe(true);
    // After the cool-down A is pinged: still down, so another cool-down (not counted twice as a new one).
    await sleep(200);
    expect((await state(w3)).pending).toBe(true);
    down.delete(A);
    await sleep(200);
    expect((await state(w3)).value?.host).toBe(A);
    expect(lines.join('\n')).toContain(`Docker host ${A} is back in placement`);
    onA.release();
  });

  it('refuses a trial only when no host can take it, saying why per host', async () => {
    const down = new Set([A, B]);
    const { fleet } = fleetOf(
      [
        [A, 1],
        [B, 1],
      ],
      { cooldownMs: 10_000, ping: downPing(down) },
    );
    const a = await fleet.acquire();
    a.release({ reason: 'create failed', during: 'start' });
    // B still takes sandboxes.
    const b = await fleet.acquire();
    expect(b.host).toBe(B);
    expect(b.refused).toBeUndefined();
    const waiting = fleet.acquire();
    expect((await state(waiting)).pending).toBe(true);
    b.release({ reason: 'create failed', during: 'start' });
    const refused = defined((await state(waiting)).value);
    expect(refused.host).toBeUndefined();
    expect(refused.refused).toMatch(/no Docker host can take a sandbox/);
    expect(refused.refused).toContain(`${A} (create failed)`);
    expect(refused.refused).toContain(`${B} (create failed)`);
    refused.release(); // holds nothing: releasing it is harmless
  });

  it('a Docker error while a trial ran cools the host only when the host also fails a ping', async () => {
    const down = new Set<string>();
    const { fleet } = fleetOf(
      [
        [A, 1],
        [B, 1],
      ],
      { cooldownMs: 10_000, ping: downPing(down) },
    );
    await fleet.fail(A, { reason: 'exec failed', during: 'run' });
    expect(fleet.summary()[A]).toMatchObject({ infra_errors: 1, cooldowns: 0 });
    down.add(A);
    await fleet.fail(A, { reason: 'exec failed', during: 'run' });
    expect(fleet.summary()[A]).toMatchObject({ infra_errors: 2, cooldowns: 1 });
    expect((await fleet.acquire()).host).toBe(B);
  });

  it('the periodic health check takes a host that stops answering out of placement', async () => {
    const down = new Set([A]);
    const { fleet } = fleetOf(
      [
        [A, 4],
        [B, 1],
      ],
      { cooldownMs: 10_000, healthIntervalMs: 20, ping: downPing(down) },
    );
    await sleep(80);
    expect(fleet.summary()[A].cooldowns).toBe(1);
    expect((await fleet.acquire()).host).toBe(B);
  });

  it('prepares a host once, under a lock, before its first sandbox; a failed preparation cools it and the trial moves', async () => {
    let builds = 0;
    let finish!: () => void;
    const { fleet } = fleetOf(
      [
        [A, 3],
        [B, 3],
      ],
      {
        cooldownMs: 10_000,
        prepareHost: async (host) => {
          if (host.url === B) throw new Error('no space left on device');
          builds++;
          await new Promise<void>((r) => (finish = r));
        },
      },
    );
    // Three concurrent first sandboxes: A and B by free capacity, then A again (B's preparation failed).
    const pending = [fleet.acquire(), fleet.acquire(), fleet.acquire()];
    for (const p of pending) expect((await state(p)).pending).toBe(true);
    expect(builds).toBe(1);
    finish();
    const slots = await Promise.all(pending);
    expect(slots.map((s) => s.host)).toEqual([A, A, A]);
    expect(builds).toBe(1);
    expect(fleet.summary()[B]).toMatchObject({ cooldowns: 1, sandboxes: 0 });
    // Later sandboxes on a prepared host do not prepare it again.
    slots[0].release();
    expect((await fleet.acquire()).host).toBe(A);
    expect(builds).toBe(1);
  });

  it('a slot granted while its acquire was aborted during the preparation is given back', async () => {
    let finish!: () => void;
    const { fleet } = fleetOf([[A, 1]], { prepareHost: () => new Promise<void>((r) => (finish = r)) });
    const abort = new AbortController();
    const first = fleet.acquire(abort.signal);
    await tick();
    abort.abort(new Error('cancelled'));
    expect((await state(first)).error).toBeDefined();
    finish();
    expect((await fleet.acquire()).host).toBe(A);
  });
});

describe('startOnFleet', () => {
  const spec = (fleet: string[]) => ({ image: 'x', fleet: fleet.map((url) => ({ url })) }) as unknown as SandboxSpec;
  const sandboxOn = (host: string) => ({ id: `c-${host}`, host }) as unknown as Sandbox;

  it('starts on the placed host; a host that fails the start is cooled and the trial starts on another', async () => {
    const { fleet } = fleetOf(
      [
        [A, 2],
        [B, 1],
      ],
      { cooldownMs: 10_000 },
    );
    registerFleet('run-1', fleet);
    try {
      const tried: Array<string | undefined> = [];
      const { sandbox, slot } = await startOnFleet(
        'run-1',
        spec([A, B]),
        undefined,
        async (s) => {
          tried.push(s.host);
          if (s.host === A) throw new HostError(A, `Docker host ${A}: create failed`);
          return sandboxOn(defined(s.host));
        },
        new AbortController().signal,
      );
      expect(tried).toEqual([A, B]);
      expect(sandbox.id).toBe(`c-${B}`);
      expect(slot?.host).toBe(B);
      expect(fleet.summary()[A]).toMatchObject({ infra_errors: 1, cooldowns: 1 });
      slot?.release();
    } finally {
      unregisterFleet('run-1');
    }
  });

  it("SANDBOX_ERROR when every host fails; an error that is not the host's is not retried", async () => {
    const { fleet } = fleetOf(
      [
        [A, 1],
        [B, 1],
      ],
      { cooldownMs: 10_000 },
    );
    registerFleet('run-2', fleet);
    try {
      const failing = async (s: SandboxSpec): Promise<Sandbox> => {
        throw new HostError(defined(s.host), `Docker host ${s.host}: create failed`);
      };
      const err = await startOnFleet('run-2', spec([A, B]), undefined, failing, new AbortController().signal).catch(
        (e) => e,
      );
      expect(err).toBeInstanceOf(SandboxError);
      expect(err.message).toMatch(/create failed/);
      // Both hosts cool down now: the next trial is refused at once, as a sandbox error.
      const refused = await startOnFleet('run-2', spec([A, B]), undefined, failing, new AbortController().signal).catch(
        (e) => e,
      );
      expect(refused).toBeInstanceOf(SandboxError);
      expect(refused.message).toMatch(/no Docker host can take a sandbox/);
    } finally {
      unregisterFleet('run-2');
    }

    const { fleet: f2 } = fleetOf([
      [A, 1],
      [B, 1],
    ]);
    registerFleet('run-3', f2);
    try {
      let calls = 0;
      const err = await startOnFleet(
        'run-3',
        spec([A, B]),
        undefined,
        async () => {
          calls++;
          throw new SandboxError('[sandbox] setup failed (exit 1): false');
        },
        new AbortController().signal,
      ).catch((e) => e);
      expect(err.message).toMatch(/setup failed/);
      expect(calls).toBe(1);
      expect(f2.summary()[A]).toMatchObject({ infra_errors: 0, cooldowns: 0 });
      // its slot was given back
      expect((await f2.acquire()).host).toBe(A);
    } finally {
      unregisterFleet('run-3');
    }
  });

  it('in a worker, uses the slots the main process grants', async () => {
    const granted: SandboxSlot[] = [];
    const acquire = async () => {
      const slot: SandboxSlot = { host: B, release: () => {} };
      granted.push(slot);
      return slot;
    };
    const { sandbox } = await startOnFleet(
      'run-not-here',
      spec([A, B]),
      acquire,
      async (s) => sandboxOn(defined(s.host)),
      new AbortController().signal,
    );
    expect(sandbox.id).toBe(`c-${B}`);
    expect(granted).toHaveLength(1);
  });
});
