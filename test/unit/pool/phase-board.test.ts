// The phase board (issue 17): what a thread marks on shared memory is what the main side reads, a
// thread of its own writes it (real worker threads), and a slot given to another trial never
// passes one trial's phase off as the other's.
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { PhaseBoard } from '../../../src/pool/phase-board.ts';
import { EventLoopWatchdog } from '../../../src/pool/watchdog.ts';

describe('PhaseBoard', () => {
  it("reads before, agent since the start, then after, for the slot's trial only", () => {
    const board = PhaseBoard.create(4);
    board.assign(2, 17);
    expect(board.read(2, 17)).toEqual({ at: 'before' });
    const t0 = Date.now();
    board.mark(2, 17, 'start');
    const p = board.read(2, 17);
    expect(p.at).toBe('agent');
    expect(p.at === 'agent' && Math.abs(p.sinceMs - t0)).toBeLessThanOrEqual(20);
    expect(board.read(2, 18)).toEqual({ at: 'before' }); // another trial's id: not its phase
    board.mark(2, 17, 'end');
    expect(board.read(2, 17)).toEqual({ at: 'after' });
    board.assign(2, 19); // the slot's next trial starts before its phase
    expect(board.read(2, 19)).toEqual({ at: 'before' });
    expect(board.read(2, 17)).toEqual({ at: 'before' });
  });

  it("a worker thread's marks reach the main side through the shared memory", async () => {
    const board = PhaseBoard.create(2);
    board.assign(1, 5);
    const code = `
      const { workerData, parentPort } = require('node:worker_threads');
      const cells = new Int32Array(workerData.buffer);
      // the same layout as PhaseBoard.mark: state, then id
      Atomics.store(cells, 3, Math.round((Date.now() - workerData.epochMs) / 10));
      Atomics.store(cells, 2, 5);
      parentPort.postMessage('started');
      setTimeout(() => { Atomics.store(cells, 3, -1); parentPort.postMessage('ended'); }, 50);`;
    const w = new Worker(code, { eval: true, workerData: board.init });
    const seen: string[] = [];
    await new Promise<void>((resolve) =>
      w.on('message', (m: string) => (seen.push(`${m}:${board.read(1, 5).at}`), m === 'ended' && resolve())),
    );
    await w.terminate();
    expect(seen).toEqual(['started:agent', 'ended:after']);
  });

  it("a watchdog started from a phase that began earlier keeps that phase's clock", async () => {
    let blockedAt = 0;
    const t0 = performance.now();
    const dog = new EventLoopWatchdog({
      afterMs: 300,
      answerMs: 100,
      ping: () => {},
      blocked: () => (blockedAt = performance.now() - t0),
    });
    dog.start(Date.now() - 200); // the agent phase started 200 ms ago: its timeout is 100 ms away
    await new Promise((r) => setTimeout(r, 500));
    expect(blockedAt).toBeGreaterThanOrEqual(95);
    expect(blockedAt).toBeLessThan(250); // not 300 ms from now, as a phase starting now would be
  });
});
