// A trial's session id: the run, the task and 8 random hex digits (a re-run of the task gets
// another). The random bytes come from a pool filled 4 KiB at a time: randomBytes(4) per trial
// was ~2% of a one-call trial's CPU in its worker (--cpu-prof, 10,000 trials).
import { randomFillSync } from 'node:crypto';

const pool = Buffer.alloc(4096);
let used = pool.length;

function randomHex8(): string {
  if (used + 4 > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += 4;
  return pool.toString('hex', used - 4, used);
}

export const sessionIdOf = (runId: string, taskId: string): string => `${runId}.${taskId}.${randomHex8()}`;
