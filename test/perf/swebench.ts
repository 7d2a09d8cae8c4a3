// The SWE-bench grading row (`swebench_grading_ratio`, docs/swebench.md): `predictions` gold patches
// of the fixture (test/fixtures/swebench-run/) graded through benchrig (`--agent predictions`, threads,
// 4 at a time) against the same work done by hand with dockerode, 4 at a time: a fresh container of
// the instance image, the patch applied with the official script, the eval script run, its output
// parsed and graded. Both must resolve every prediction.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Docker from 'dockerode';
import { createOptions } from '../../src/sandbox/docker/sandbox.ts';
import { ensureImage } from '../../src/sandbox/docker/images.ts';
import { ensureToolbox } from '../../src/sandbox/docker/toolbox.ts';
import type { SandboxSpec } from '../../src/sandbox/types.ts';
import {
  applyPatchScript,
  evalScript,
  instanceReport,
  parserFor,
  readRow,
  type SwebenchInstance,
} from '../../src/swebench/index.ts';
import { removeByRun } from './docker-raw.ts';
import { runChild } from './run-child.ts';

const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const FIXTURE = join(REPO, 'test/fixtures/swebench-run');
const IMAGE = 'benchrig-test/swebench-calc:1';
const TEST_COMMAND = 'python3 -m pytest -rA -p no:cacheprovider tests';

export interface SwebenchSizes {
  predictions: number;
  concurrency: number;
}

/** `n` rows: the fixture's instances over and over, each with an id of its own. */
function rows(n: number): Record<string, unknown>[] {
  const base = readFileSync(join(FIXTURE, 'dataset.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return Array.from({ length: n }, (_, i) => {
    const row = base[i % base.length] ?? {};
    return { ...row, instance_id: `${String(row.instance_id)}-${String(i).padStart(3, '0')}` };
  });
}

function writeBenchmark(dir: string, data: Record<string, unknown>[]): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'dataset.jsonl'), data.map((r) => JSON.stringify(r)).join('\n') + '\n');
  writeFileSync(
    join(dir, 'benchmark.toml'),
    `name = "perf-swebench"\n[dataset]\nsource = "dataset.jsonl"\nformat = "swebench"\n[swebench]\ntest_command = ${JSON.stringify(TEST_COMMAND)}\n[sandbox]\nimage = "${IMAGE}"\nmemory = "512m"\n`,
  );
  const preds = join(dir, 'preds.jsonl');
  writeFileSync(
    preds,
    data
      .map((r) => JSON.stringify({ instance_id: r.instance_id, model_name_or_path: 'gold', model_patch: r.patch }))
      .join('\n') + '\n',
  );
  return preds;
}

const heredoc = (file: string, text: string) => `cat > ${file} <<'BENCHRIG_PERF_EOF'\n${text}\nBENCHRIG_PERF_EOF\n`;

async function execBash(container: Docker.Container, script: string): Promise<{ code: number; out: string }> {
  const exec = await container.exec({ Cmd: ['/bin/bash', '-c', script], AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({ hijack: true, stdin: false });
  const chunks: Buffer[] = [];
  await new Promise<void>((done) => {
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.once('end', done);
    stream.once('close', done);
    stream.once('error', () => done());
  });
  // The multiplexed stream's 8-byte frame headers: enough for the markers and the test lines.
  const out = Buffer.concat(chunks).toString('utf8');
  return { code: (await exec.inspect()).ExitCode ?? -1, out };
}

/** One instance by hand: fresh container, apply, run, parse, grade; whether it resolved. */
async function byHand(
  docker: Docker,
  spec: SandboxSpec,
  toolbox: string,
  runId: string,
  i: number,
  inst: SwebenchInstance,
) {
  const container = await docker.createContainer(
    createOptions(spec, { runId, sessionId: `${runId}.swe${i}` }, toolbox),
  );
  try {
    await container.start();
    const patch = inst.patch.endsWith('\n') ? inst.patch : `${inst.patch}\n`;
    const applied = await execBash(container, heredoc('/tmp/patch.diff', patch.slice(0, -1)) + applyPatchScript());
    if (applied.code !== 0) return false;
    const script = evalScript(inst, TEST_COMMAND);
    if (typeof script !== 'string') throw new Error(script.problem);
    const ran = await execBash(container, heredoc('/eval.sh', script) + '/bin/bash /eval.sh 2>&1');
    const parser = parserFor(inst);
    if (typeof parser === 'string') throw new Error(parser);
    const spec2 = { ...inst, evalType: inst.eval_type, parser };
    return instanceReport(spec2, inst.patch, ran.out)[inst.instance_id]?.resolved === true;
  } finally {
    await container.remove({ force: true, v: true });
  }
}

async function handLoop(data: Record<string, unknown>[], concurrency: number, runId: string) {
  const docker = new Docker();
  const spec = {
    image: IMAGE,
    workdir: '/testbed',
    network: 'none',
    memory: '512m',
    cpus: 1,
    pids: 256,
    setup: [],
    capAdd: [],
    shared: null,
    execTimeoutMs: 120_000,
    maxOutputBytes: 1_048_576,
  } as unknown as SandboxSpec;
  const toolbox = await ensureToolbox(IMAGE, docker);
  const instances = data.map((r) => {
    const read = readRow(r, TEST_COMMAND);
    if (typeof read === 'string') throw new Error(read);
    return read.instance;
  });
  let next = 0;
  let resolved = 0;
  const t0 = performance.now();
  const lane = async () => {
    for (let i = next++; i < instances.length; i = next++) {
      const inst = instances[i];
      if (inst && (await byHand(docker, spec, toolbox, runId, i, inst))) resolved += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return { ms: performance.now() - t0, resolved };
}

/** Median over `reps` of benchrig's wall time over the hand loop's, the two alternating which goes first. */
export async function swebenchGradingRow(root: string, z: SwebenchSizes, reps: number, say: (line: string) => void) {
  await ensureImage({ image: 'benchrig/debian-python:1', build: join(REPO, 'sandboxes/debian-python'), trusted: true });
  await ensureImage({ image: IMAGE, build: join(FIXTURE, 'image'), trusted: true });
  const data = rows(z.predictions);
  const dir = join(root, 'perf-swebench');
  const preds = writeBenchmark(dir, data);
  const runId = `perf-swebench-${process.pid}`;
  const bench = async () => {
    const r = await runChild({
      benchmark: dir,
      cwd: root,
      agent: 'predictions',
      agentOptions: { file: preds },
      mode: 'threads',
      workers: z.concurrency,
      perWorker: 1,
      output: join(root, 'evals'),
      modelUrl: 'http://127.0.0.1:9/v1',
    });
    if (r.n_passed !== z.predictions)
      throw new Error(
        `swebench grading: benchrig resolved ${r.n_passed} of ${z.predictions}: ${JSON.stringify(r.status_counts)}`,
      );
    return r.wall_ms;
  };
  const hand = async () => {
    const r = await handLoop(data, z.concurrency, runId);
    if (r.resolved !== z.predictions)
      throw new Error(`swebench grading: the hand loop resolved ${r.resolved} of ${z.predictions}`);
    return r.ms;
  };
  try {
    const pairs: Array<{ benchrig_ms: number; by_hand_ms: number }> = [];
    for (let i = 0; i < reps; i++) {
      const first = i % 2 === 0 ? await hand() : await bench();
      const second = i % 2 === 0 ? await bench() : await hand();
      const pair =
        i % 2 === 0 ? { by_hand_ms: first, benchrig_ms: second } : { benchrig_ms: first, by_hand_ms: second };
      pairs.push(pair);
      say(`  swebench grading: benchrig ${Math.round(pair.benchrig_ms)} ms, by hand ${Math.round(pair.by_hand_ms)} ms`);
    }
    const ratios = pairs.map((p) => p.benchrig_ms / p.by_hand_ms).sort((a, b) => a - b);
    return {
      value: ratios[Math.floor(ratios.length / 2)] ?? Number.NaN,
      raw: { reps: pairs, predictions: z.predictions, concurrency: z.concurrency },
    };
  } finally {
    await removeByRun(runId);
  }
}

// This row alone: `node --import tsx test/perf/swebench.ts [predictions] [concurrency] [reps]`.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [predictions = 50, concurrency = 4, reps = 3] = process.argv.slice(2).map(Number);
  const root = mkdtempSync(join(tmpdir(), 'swebench-perf-row-'));
  try {
    const r = await swebenchGradingRow(root, { predictions, concurrency }, reps, (l) => process.stderr.write(`${l}\n`));
    process.stdout.write(`swebench_grading_ratio ${r.value.toFixed(3)}\n`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
