// What a run says on the terminal while it goes (docs/cli.md#run): on a TTY (a pseudo-terminal made by
// script(1)) the live line counts failed and timed-out trials, the summary ends with the wall time,
// and --verbose keeps every line of every event under its trial's task id when trials run together.
// Piped (a CI log), a large run prints its failed trials and its progress, not a line a trial.
import { writeFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, FIXTURES, runCli, tempDir } from '../support/cli.ts';

const bench = (rows: object[]) => {
  const dir = join(tempDir(), 'bench');
  cpSync(join(FIXTURES, 'benchmarks/echo-local'), dir, { recursive: true });
  writeFileSync(join(dir, 'data.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return dir;
};
const agent = (name: string) => join(FIXTURES, 'agents', `${name}.ts`);
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The CLI on a pseudo-terminal: stdout and stderr are one TTY, as a user at a terminal sees it. */
async function onTerminal(args: string[]) {
  const cmd = ['node', BIN, ...args].map(quote).join(' ');
  const r = await execa('script', ['-qec', cmd, '/dev/null'], {
    env: { NO_COLOR: '1', TERM: 'xterm' },
    reject: false,
    timeout: 120_000,
    stdin: 'ignore',
  });
  return { code: r.exitCode, text: String(r.stdout) };
}

describe('the console of a run', () => {
  it('on a terminal, the live line counts failed and timed-out trials; the summary gives the wall time', async () => {
    const dir = bench([
      { id: 'a', input: 'say apple', expected: 'apple' },
      { id: 'b', input: 'say banana', expected: 'grape' },
      { id: 'c', input: 'say cherry', expected: 'kiwi' },
      { id: 'h', input: 'hang here', expected: 'x' },
    ]);
    const t0 = Date.now();
    const r = await onTerminal([
      'run',
      dir,
      '--agent',
      agent('hang'),
      '--trial-timeout',
      '2',
      '--mode',
      'threads',
      '--output',
      tempDir(),
    ]);
    const took = (Date.now() - t0) / 1000;
    expect(r.code, r.text).toBe(1); // the gate fails
    // the live line is redrawn after a carriage return; its last state before the summary
    const drawn = r.text.split('\r').filter((s) => s.includes(' in flight'));
    expect(drawn.length, r.text).toBeGreaterThan(0);
    expect(drawn.at(-1)).toMatch(/\[4\/4\] 1 passing · 2 failed · 1 timed out · 0 errors · 0 in flight/);
    const wall = /\nwall time {2}(\d+\.\d)s\r?\n/.exec(r.text);
    expect(wall, r.text).not.toBeNull();
    const seconds = Number(wall?.[1]);
    expect(seconds).toBeGreaterThanOrEqual(2); // the timed-out trial alone took 2 s
    expect(seconds).toBeLessThanOrEqual(took);
  });

  it('piped, a run of 2,000 trials prints a bounded number of lines, naming every trial that failed', async () => {
    const id = (i: number) => `s${String(i).padStart(4, '0')}`;
    const failing = [0, 411, 999, 1500, 1999];
    const rows = Array.from({ length: 2000 }, (_, i) => ({
      id: id(i),
      input: `say w${i}`,
      expected: failing.includes(i) ? 'grape' : `w${i}`,
    }));
    const t0 = Date.now();
    const r = await runCli(['run', bench(rows), '--agent', agent('echo'), '--mode', 'threads', '--output', tempDir()]);
    const took = (Date.now() - t0) / 1000;
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.trimEnd().split('\n');
    const trialLines = lines.filter((l) => /^\[ *\d+\/2000\] [A-Z_]+ /.test(l));
    expect(trialLines.map((l) => /\] (\S+) +(\S+) /.exec(l)?.slice(1).join(' ')).sort()).toEqual(
      failing.map((i) => `FAILED ${id(i)}`),
    );
    for (const l of trialLines) expect(l).toMatch(/\(\d+\.\ds\) {2}mentions it: missing "grape"$/);
    const progress = lines.filter((l) => l.includes(' passing · '));
    expect(progress.at(-1)).toBe(
      '[2000/2000] 1995 passing · 5 failed · 0 timed out · 0 errors · 0 in flight · ETA 0:00',
    );
    expect(progress.length).toBeLessThanOrEqual(Math.floor(took / 10) + 1); // at most every 10 s, and the end
    // the header (the benchmark, its run folder, its layout), then nothing but those
    expect(lines).toHaveLength(3 + failing.length + progress.length);
  });

  it('--verbose without --sample: every line of every event starts with its task id', async () => {
    const rows = ['a', 'b', 'c', 'd'].map((id) => ({
      id,
      input: `first line of ${id}\nsecond line of ${id}\nthird line of ${id}`,
      expected: `third line of ${id}`,
    }));
    const out = tempDir();
    const r = await runCli([
      'run',
      bench(rows),
      '--agent',
      agent('echo'),
      '--trials',
      '2',
      '--mode',
      'threads',
      '--verbose',
      '--output',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const ids = rows.flatMap((x) => [`${x.id}-t1`, `${x.id}-t2`]);
    const events = r.stderr
      .split('\n')
      .filter((l) => /^ {2}\S/.test(l) && !l.startsWith('  run folder:') && !l.startsWith('  layout:'));
    expect(events.length).toBeGreaterThan(ids.length * 3);
    for (const line of events) expect(ids, line).toContain(line.trim().split(' ')[0]);
    // each trial's continuation lines are under its own id
    for (const id of ids) {
      const sample = id.split('-')[0];
      expect(events).toContain(`  ${id} │ second line of ${sample}`);
    }
  });
});
