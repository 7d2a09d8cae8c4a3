// bin/heap.mjs (docs/performance.md): the flags bin/benchrig.mjs sets before anything loads keep a
// benchrig process's young generation at its first size, however much survives, where a process
// without them doubles it up to 16 MB a semi-space; and its compilers' memory small where a
// process without them recompiles undici's HTTP parser (WebAssembly) with ~30 MB of it; and its
// optimizing compilers off until the process has used a few seconds of CPU time.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HEAP = fileURLToPath(new URL('../../../bin/heap.mjs', import.meta.url));
const FLAGS = fileURLToPath(new URL('../../../src/loader/heap-flags.mjs', import.meta.url));

// Allocates 3 million small objects and keeps a third of them (what survives makes V8 grow its young
// generation), then prints the young generation's size in MB.
const PROGRAM = `
import v8 from 'node:v8';
const keep = [];
for (let i = 0; i < 3e6; i++) { const o = { a: i, b: 'x' + i }; if (i % 3 === 0) keep.push(o); }
const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
console.log(young.space_size / 1048576, keep.length);
`;

const youngMb = (nodeArgs: string[]) =>
  Number(
    execFileSync(process.execPath, [...nodeArgs, '--input-type=module', '-e', PROGRAM])
      .toString()
      .split(' ')[0],
  );

describe('bin/heap.mjs', () => {
  it("keeps the young generation at its first size (without it, the same program's grows)", () => {
    expect(youngMb([])).toBeGreaterThanOrEqual(16);
    expect(youngMb(['--import', HEAP])).toBeLessThanOrEqual(2);
  }, 30_000);

  it("keeps it so after a worker thread starts, which resets V8's flags, once restoreHeapFlags runs", () => {
    const program = (restore: boolean) => `
import { Worker } from 'node:worker_threads';
import { restoreHeapFlags } from ${JSON.stringify(FLAGS)};
const w = new Worker('setTimeout(() => {}, 100)', { eval: true });
await new Promise((ok) => w.once('online', ok));
${restore ? 'restoreHeapFlags();' : ''}
${PROGRAM}`;
    const run = (restore: boolean) =>
      Number(
        execFileSync(process.execPath, ['--import', HEAP, '--input-type=module', '-e', program(restore)])
          .toString()
          .split(' ')[0],
      );
    // Without the restore it grows (to 32 MB when the machine is idle; less under load, as V8
    // sizes it by the survival rate and the time a collection takes).
    const restored = run(true);
    expect(restored).toBeLessThanOrEqual(2);
    expect(run(false)).toBeGreaterThan(restored);
  }, 30_000);

  it('lets the young generation grow again once settleBulkRead runs (evaluate), in a benchrig process only', () => {
    // `own`: the flag a library caller's process might have set itself, which settleBulkRead leaves alone
    const run = (nodeArgs: string[], own = '') =>
      Number(
        execFileSync(process.execPath, [
          ...nodeArgs,
          '--input-type=module',
          '-e',
          `import { setFlagsFromString } from 'node:v8';
import { settleBulkRead } from ${JSON.stringify(FLAGS)};
${own ? `setFlagsFromString(${JSON.stringify(own)});` : ''}
settleBulkRead();
${PROGRAM}`,
        ])
          .toString()
          .split(' ')[0],
      );
    // the CLI's flags set first, then settled: it grows as it does without any (by what survives: 16 MB or more idle)
    expect(run(['--import', HEAP])).toBeGreaterThan(2);
    expect(run([], '--semi-space-growth-factor=1')).toBeLessThanOrEqual(2);
  }, 30_000);

  it("keeps V8's compilers to a few MB under a stream of HTTP calls, in a worker thread too once restoreHeapFlags runs", () => {
    // 3,000 calls through fetch (undici, whose HTTP parser is WebAssembly) to a loopback server, in a
    // worker thread started as the pool starts one; prints V8's peak of compiler and parser memory, MB.
    const program = `
import http from 'node:http';
import { Worker } from 'node:worker_threads';
import { restoreHeapFlags } from ${JSON.stringify(FLAGS)};
const server = http.createServer((_, res) => res.end('{"ok":true}')).listen(0, '127.0.0.1');
await new Promise((ok) => server.once('listening', ok));
const w = new Worker(\`
  const { parentPort, workerData } = await import('node:worker_threads');
  const { default: v8 } = await import('node:v8');
  parentPort.once('message', async () => {
    for (let i = 0; i < 3000; i++) await (await fetch(workerData)).text();
    parentPort.postMessage(v8.getHeapStatistics().peak_malloced_memory / 1048576);
  });
\`, { eval: true, workerData: 'http://127.0.0.1:' + server.address().port + '/' });
await new Promise((ok) => w.once('online', ok));
restoreHeapFlags();
w.postMessage('go');
console.log(await new Promise((ok) => w.once('message', ok)));
await w.terminate();
server.close();
`;
    const peakMb = (nodeArgs: string[]) =>
      Number(execFileSync(process.execPath, [...nodeArgs, '--input-type=module', '-e', program]).toString());
    expect(peakMb([])).toBeGreaterThan(16);
    expect(peakMb(['--import', HEAP])).toBeLessThan(8);
  }, 60_000);

  it('leaves TurboFan and Sparkplug off until the process has used OPTIMIZE_AFTER_CPU_MS of CPU time, then optimizes', async () => {
    const { OPTIMIZE_AFTER_CPU_MS } = await import('../../../src/loader/heap-flags.mjs');
    // A hot function, then CPU burnt (yielding, as a run does) until it is optimized; prints its
    // tiers before, and the process's CPU time once TurboFan has it.
    const program = `
function hot(n) { let s = 0; for (let i = 0; i < n; i++) s += (i * 7) % 13; return s; }
const status = () => %GetOptimizationStatus(hot);
const TURBOFAN = 1 << 6, BASELINE = 1 << 15;
for (let i = 0; i < 300; i++) hot(1e5);
const before = status();
const t0 = Date.now();
while (!(status() & TURBOFAN) && Date.now() - t0 < 20000) {
  for (let i = 0; i < 50; i++) hot(1e5);
  await new Promise((ok) => setImmediate(ok));
}
const u = process.cpuUsage();
console.log(JSON.stringify({ turbofan: !!(before & TURBOFAN), baseline: !!(before & BASELINE), optimized: !!(status() & TURBOFAN), cpuMs: (u.user + u.system) / 1000 }));
`;
    const run = (nodeArgs: string[]) =>
      JSON.parse(
        execFileSync(process.execPath, [...nodeArgs, '--allow-natives-syntax', '--input-type=module', '-e', program])
          .toString()
          .trim(),
      ) as { turbofan: boolean; baseline: boolean; optimized: boolean; cpuMs: number };
    const without = run([]);
    expect(without.turbofan).toBe(true);
    const flagged = run(['--import', HEAP]);
    expect(flagged).toMatchObject({ turbofan: false, baseline: false, optimized: true });
    expect(flagged.cpuMs).toBeGreaterThanOrEqual(OPTIMIZE_AFTER_CPU_MS);
    // A long run (settleLongRun, from the threads pool's start) has them at once.
    const settled = JSON.parse(
      execFileSync(process.execPath, [
        '--import',
        HEAP,
        '--allow-natives-syntax',
        '--input-type=module',
        '-e',
        `import { settleLongRun } from ${JSON.stringify(FLAGS)};\nsettleLongRun();\n${program}`,
      ])
        .toString()
        .trim(),
    ) as { optimized: boolean; cpuMs: number };
    expect(settled.optimized).toBe(true);
    expect(settled.cpuMs).toBeLessThan(OPTIMIZE_AFTER_CPU_MS);
  }, 60_000);

  it('is what bin/benchrig.mjs imports first', async () => {
    const { readFile } = await import('node:fs/promises');
    const bin = await readFile(fileURLToPath(new URL('../../../bin/benchrig.mjs', import.meta.url)), 'utf8');
    const imports = [...bin.matchAll(/^import\s.*$/gm)].map((m) => m[0]);
    expect(imports[0]).toBe("import './heap.mjs';");
  });
});
