// `npm run perf -- --peer promptfoo` (issue 17): promptfoo 0.123.1 on Node 22 and `benchrig run` on
// the same 1,000 one-call samples with a `contains` assertion, 8 in flight, against the same
// instant loopback model, alternating, 5 rounds; medians of whole-process wall time and peak RSS.
// promptfoo and Node 22 are installed from npm once, into a cache folder outside the repository
// (BENCHRIG_PEER_CACHE, default /var/cache/benchrig/peers): nothing of theirs enters package.json.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { Fixtures } from './fixtures.ts';
import { runChild } from './run-child.ts';

export const PROMPTFOO_VERSION = '0.123.1';
const NODE_MAJOR = '22';

export interface PeerSizes {
  samples: number;
  rounds: number;
  inFlight: number;
}
export const PEER_FULL: PeerSizes = { samples: 1000, rounds: 5, inFlight: 8 };

export interface PeerInstall {
  dir: string;
  node: string;
  main: string;
}

/** Installs promptfoo and Node 22 into the cache folder (once; later calls find them). */
export function installPromptfoo(
  cacheRoot = process.env.BENCHRIG_PEER_CACHE ?? '/var/cache/benchrig/peers',
  say: (l: string) => void = () => {},
): PeerInstall {
  const dir = join(cacheRoot, `promptfoo-${PROMPTFOO_VERSION}-node${NODE_MAJOR}`);
  const node = join(dir, 'node_modules/node/bin/node');
  const main = join(dir, 'node_modules/promptfoo/dist/src/main.js');
  if (!existsSync(node) || !existsSync(main)) {
    say(`  installing promptfoo@${PROMPTFOO_VERSION} and node@${NODE_MAJOR} into ${dir} (once)`);
    mkdirSync(dir, { recursive: true });
    if (!existsSync(join(dir, 'package.json')))
      writeFileSync(join(dir, 'package.json'), '{ "name": "benchrig-peer-promptfoo", "private": true }\n');
    execFileSync(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        `promptfoo@${PROMPTFOO_VERSION}`,
        `node@${NODE_MAJOR}`,
      ],
      { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'], timeout: 1_800_000 },
    );
  }
  if (!existsSync(main)) throw new Error(`promptfoo installed without ${main}`);
  return { dir, node, main };
}

interface Measured {
  wall_ms: number;
  peak_rss_mb: number;
}

/** A command's whole-process wall time and peak RSS (GNU time's %M, KiB). */
function timed(
  cmd: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<Measured & { stdout: string }> {
  const out = join(mkdtempSync(join(tmpdir(), 'benchrig-perf-time-')), 'time.txt');
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    execFile(
      '/usr/bin/time',
      ['-f', '%M', '-o', out, cmd, ...args],
      { ...opts, maxBuffer: 64 * 1024 * 1024, timeout: 900_000 },
      (err, stdout, stderr) => {
        const wall = performance.now() - t0;
        try {
          if (err) throw new Error(`${cmd} failed: ${err.message}\n${stderr.slice(-2000)}`);
          const kb = Number(readFileSync(out, 'utf8').trim().split('\n').at(-1));
          resolve({ wall_ms: wall, peak_rss_mb: kb / 1024, stdout });
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        } finally {
          rmSync(join(out, '..'), { recursive: true, force: true });
        }
      },
    );
  });
}

/** promptfoo's config for the same samples: the input as the prompt, `contains` on the expected text. */
function promptfooConfig(dir: string, benchmarkDir: string, modelUrl: string, n: number): string {
  const rows = readFileSync(join(benchmarkDir, 'data.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .slice(0, n)
    .map((l) => JSON.parse(l) as { input: string; expected: string });
  const tests = rows.map((r) => ({ vars: { input: r.input }, assert: [{ type: 'contains', value: r.expected }] }));
  const config = {
    description: 'benchrig perf peer',
    prompts: ['{{input}}'],
    providers: [{ id: 'openai:chat:perf-model', config: { apiBaseUrl: modelUrl, apiKey: 'sk-perf' } }],
    tests,
  };
  const path = join(dir, 'promptfooconfig.json');
  writeFileSync(path, JSON.stringify(config));
  return path;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export interface PeerFigures {
  wall_ratio: number;
  rss_ratio: number;
  raw: Record<string, unknown>;
}

export async function measurePromptfoo(
  ctx: { fx: Fixtures; root: string; modelUrl: string; say: (l: string) => void },
  z: PeerSizes = PEER_FULL,
  install: PeerInstall = installPromptfoo(undefined, ctx.say),
): Promise<PeerFigures> {
  const bench = ctx.fx.localBenchmark(z.samples);
  const work = mkdtempSync(join(ctx.root, 'promptfoo-'));
  const config = promptfooConfig(work, bench, ctx.modelUrl, z.samples);
  const env = {
    ...process.env,
    NO_COLOR: '1',
    OPENAI_API_KEY: 'sk-perf',
    PROMPTFOO_CONFIG_DIR: join(work, 'home'),
    PROMPTFOO_DISABLE_TELEMETRY: '1',
    PROMPTFOO_DISABLE_UPDATE: '1',
    PROMPTFOO_CACHE_ENABLED: 'false',
    PROMPTFOO_DISABLE_SHARING: '1',
    IS_TESTING: '',
  };
  const version = execFileSync(install.node, ['--version']).toString().trim();
  const pf: Measured[] = [];
  const br: Measured[] = [];
  const workers = 2;
  for (let i = 0; i < z.rounds; i++) {
    const p = await timed(
      install.node,
      [
        install.main,
        'eval',
        '-c',
        config,
        '--max-concurrency',
        String(z.inFlight),
        '--no-cache',
        '--no-progress-bar',
        '--no-table',
        '-o',
        join(work, `out-${i}.json`),
      ],
      { cwd: work, env },
    );
    const passes = (
      JSON.parse(readFileSync(join(work, `out-${i}.json`), 'utf8')) as { results?: { stats?: { successes?: number } } }
    ).results?.stats?.successes;
    if (passes !== z.samples) throw new Error(`promptfoo passed ${passes} of ${z.samples}`);
    pf.push(p);
    const t0 = performance.now();
    const b = await runChild({
      benchmark: bench,
      agent: ctx.fx.agents.oneCall,
      mode: 'threads',
      workers,
      perWorker: z.inFlight / workers,
      cwd: ctx.root,
      output: join(ctx.root, 'evals'),
      modelUrl: ctx.modelUrl,
    });
    if (b.n_passed !== z.samples) throw new Error(`benchrig passed ${b.n_passed} of ${z.samples}`);
    const ours = { wall_ms: performance.now() - t0, peak_rss_mb: b.peak_rss_mb };
    br.push(ours);
    ctx.say(
      `  promptfoo round ${i + 1}: promptfoo ${Math.round(p.wall_ms)} ms ${Math.round(p.peak_rss_mb)} MB, benchrig ${Math.round(ours.wall_ms)} ms ${Math.round(b.peak_rss_mb)} MB`,
    );
  }
  const w = (xs: Measured[]) => median(xs.map((x) => x.wall_ms));
  const r = (xs: Measured[]) => median(xs.map((x) => x.peak_rss_mb));
  return {
    wall_ratio: w(br) / w(pf),
    rss_ratio: r(br) / r(pf),
    raw: {
      samples: z.samples,
      rounds: z.rounds,
      in_flight: z.inFlight,
      promptfoo: PROMPTFOO_VERSION,
      promptfoo_node: version,
      benchrig_node: process.version,
      measured:
        'whole process: wall time from spawn to exit, peak RSS (GNU time %M for promptfoo, getrusage maxRSS for benchrig); alternating; medians',
      promptfoo_wall_ms: pf.map((x) => Math.round(x.wall_ms)),
      benchrig_wall_ms: br.map((x) => Math.round(x.wall_ms)),
      promptfoo_rss_mb: pf.map((x) => Math.round(x.peak_rss_mb)),
      benchrig_rss_mb: br.map((x) => Math.round(x.peak_rss_mb)),
    },
  };
}
