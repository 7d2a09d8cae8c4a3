import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireRunLock, processStartTicks } from '../../../src/run/run-lock.ts';
import { tempDir } from '../../support/cli.ts';
import { defined } from '../../support/defined.ts';

const children: Array<ReturnType<typeof spawn>> = [];
afterEach(() => children.splice(0).forEach((c) => c.kill('SIGKILL')));

/** A live process other than this one, standing for a second benchrig. */
function otherProcess(): number {
  const c = spawn('sleep', ['60'], { stdio: 'ignore' });
  children.push(c);
  return defined(c.pid);
}
const lockOf = (dir: string) => JSON.parse(readFileSync(join(dir, '.lock'), 'utf8'));

describe('run folder lock', () => {
  it('is held while the run runs and removed when released', () => {
    const dir = tempDir();
    const lock = acquireRunLock(dir, dir);
    expect(lockOf(dir)).toEqual({ pid: process.pid, host: hostname(), started: processStartTicks(process.pid) });
    lock.release();
    expect(existsSync(join(dir, '.lock'))).toBe(false);
  });

  it('refuses a folder whose holder is alive, naming its pid', async () => {
    const dir = tempDir();
    const pid = otherProcess();
    await new Promise((r) => setTimeout(r, 50)); // /proc/<pid>/stat of the exec'd sleep
    writeFileSync(join(dir, '.lock'), JSON.stringify({ pid, host: hostname(), started: processStartTicks(pid) }));
    expect(() => acquireRunLock(dir, `--resume ${dir}`)).toThrow(
      new RegExp(`--resume ${dir}: refusing, the run is still going in process ${pid}`),
    );
    expect(lockOf(dir).pid).toBe(pid); // untouched
  });

  it('takes over a stale lock: a dead holder, or its pid now used by another process (start time differs)', () => {
    const dir = tempDir();
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(join(dir, '.lock'), JSON.stringify({ pid: dead, host: hostname(), started: 1 }));
    acquireRunLock(dir, dir).release();
    const reused = otherProcess();
    writeFileSync(join(dir, '.lock'), JSON.stringify({ pid: reused, host: hostname(), started: -1 }));
    const lock = acquireRunLock(dir, dir);
    expect(lockOf(dir).pid).toBe(process.pid);
    lock.release();
    writeFileSync(join(dir, '.lock'), '{"pid": 12'); // half-written by a killed process
    acquireRunLock(dir, dir).release();
  });

  it('a folder of a benchrig without locks: run.json running with a live pid refuses too', () => {
    const dir = tempDir();
    const pid = otherProcess();
    expect(() => acquireRunLock(dir, 'x', { status: 'running', pid, host: hostname() })).toThrow(
      new RegExp(`process ${pid}`),
    );
    expect(existsSync(join(dir, '.lock'))).toBe(false);
    acquireRunLock(dir, 'x', { status: 'complete', pid, host: hostname() }).release();
  });
});
