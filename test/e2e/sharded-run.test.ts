// A run of many trials keeps its result files and logs in shard folders (docs/reports.md#files):
// BENCHRIG_SHARD_ABOVE lowers the size at which a run shards, so that 300 trials make a sharded run
// folder as a million do. Every command that reads a run reads it unchanged: --resume, evaluate,
// report (and --trial), compare (against a flat run: folders from before still load), export and view.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { onlyRunDir, readJson, runCli, startView, tempDir } from '../support/cli.ts';

const SAMPLES = 60;
const TRIALS = 5;
const N = SAMPLES * TRIALS;
const SHARDED = { BENCHRIG_SHARD_ABOVE: '50' };

function benchmark(): string {
  const dir = join(tempDir(), 'many-local');
  mkdirSync(dir, { recursive: true });
  const rows = Array.from({ length: SAMPLES }, (_, i) =>
    JSON.stringify({ id: `s${String(i).padStart(3, '0')}`, input: `say w${i}`, expected: `w${i}` }),
  );
  writeFileSync(join(dir, 'data.jsonl'), rows.join('\n') + '\n');
  writeFileSync(
    join(dir, 'benchmark.toml'),
    'name = "many-local"\n[dataset]\nsource = "data.jsonl"\n[[checks]]\ntype = "contains"\nname = "says it"\n',
  );
  return dir;
}

/** Every file under `dir/<top>/`, as `<folder>/<name>` relative to it ('' for the top folder). */
function filesUnder(dir: string, top: string): Array<{ folder: string; name: string }> {
  const out: Array<{ folder: string; name: string }> = [];
  for (const e of readdirSync(join(dir, top), { withFileTypes: true })) {
    if (e.isFile()) out.push({ folder: '', name: e.name });
    else for (const n of readdirSync(join(dir, top, e.name))) out.push({ folder: e.name, name: n });
  }
  return out;
}

const run = (bench: string, out: string, env: Record<string, string> = {}) =>
  runCli(
    ['run', bench, '--agent', 'oracle', '--mode', 'threads', '--workers', '2', '--per-worker', '4'].concat([
      '--trials',
      String(TRIALS),
      '--output',
      out,
      '--quiet',
    ]),
    { env },
  );

describe('a sharded run folder', () => {
  let bench: string;
  let dir: string;
  let flat: string;
  beforeAll(async () => {
    bench = benchmark();
    const out = tempDir();
    expect((await run(bench, out, SHARDED)).code).toBe(0);
    dir = onlyRunDir(out, 'oracle', 'many-local');
    const flatOut = tempDir();
    expect((await run(bench, flatOut)).code).toBe(0);
    flat = onlyRunDir(flatOut, 'oracle', 'many-local');
  }, 240_000);

  it('keeps results and logs in shard folders named by the task id, every trial once', () => {
    const results = filesUnder(dir, 'results').filter((f) => f.name.endsWith('.json'));
    const logs = filesUnder(dir, 'logs');
    expect(results).toHaveLength(N);
    expect(logs).toHaveLength(N);
    expect(results.every((f) => /^[0-9a-f]{2}$/.test(f.folder))).toBe(true);
    const folders = new Set(results.map((f) => f.folder));
    expect(folders.size).toBeGreaterThan(100); // 300 trials over 256 folders
    const perFolder = Math.max(...[...folders].map((s) => results.filter((f) => f.folder === s).length));
    expect(perFolder).toBeLessThan(20);
    for (const f of results.slice(0, 20)) {
      const text = readFileSync(join(dir, 'results', f.folder, f.name), 'utf8');
      expect(text.trimEnd().split('\n')).toHaveLength(1); // a sharded run's files are JSON on one line
      const r = JSON.parse(text);
      expect(`${r.task_id}.json`).toBe(f.name);
      expect(existsSync(join(dir, 'logs', f.folder, `${r.task_id}.log`))).toBe(true);
    }
    // a run of fewer trials than the threshold stays flat, as every run before
    const flatFiles = filesUnder(flat, 'results').filter((f) => f.folder === '' && f.name.endsWith('.json'));
    expect(flatFiles).toHaveLength(N);
    expect(readFileSync(join(flat, 'results', flatFiles[0].name), 'utf8')).toContain('\n  "task_id"'); // indented
  });

  it('reports every trial, and one by its id or its sample', async () => {
    const report = readJson(join(dir, 'evaluation_report.json'));
    expect(report.metrics).toMatchObject({ n_trials: N, n_passed: N, n_tasks: SAMPLES });
    const json = await runCli(['report', dir, '--format', 'json']);
    expect(JSON.parse(json.stdout).metrics.n_trials).toBe(N);
    const one = await runCli(['report', dir, '--trial', 's042-t3']);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain('s042-t3');
    const ofSample = await runCli(['report', dir, '--trial', 's042']);
    expect(ofSample.code).toBe(2);
    expect(ofSample.stderr).toContain('sample s042 has 5 trials');
    const html = await runCli(['report', dir, '--format', 'html', '--out', join(dir, 'again.html')]);
    expect(html.code).toBe(0);
    expect(readFileSync(join(dir, 'again.html'), 'utf8')).toContain('s042-t3');
  });

  it('evaluate re-grades every trial in its shard, and compare reads it beside a flat run', async () => {
    const ev = await runCli(['evaluate', dir], { env: SHARDED });
    expect(ev.code).toBe(0);
    expect(ev.stdout + ev.stderr).toContain(`re-graded ${N} trial(s)`);
    const cmp = await runCli(['compare', flat, dir, '--json']);
    expect(cmp.code).toBe(0);
    const c = JSON.parse(cmp.stdout);
    expect(c.regressions).toEqual([]);
    expect(c.paired).toMatchObject({ n: SAMPLES });
  });

  it('export writes every trial, with its log from its shard', async () => {
    const out = join(tempDir(), 'job');
    const ex = await runCli(['export', dir, '--format', 'harbor', '--out', out]);
    expect(ex.code).toBe(0);
    const trials = readdirSync(out).filter((n) => existsSync(join(out, n, 'result.json')));
    expect(trials).toHaveLength(N);
    expect(trials.every((n) => existsSync(join(out, n, 'trial.log')))).toBe(true);
  });

  it('view serves the page and any trial by its task id, and nothing by a path', async () => {
    const { child, address } = await startView(dir);
    try {
      expect((await fetch(address)).status).toBe(200);
      const res = await fetch(`${address}trial.json?id=s007-t2`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ task_id: 's007-t2', sample_id: 's007', status: 'PASSED' });
      for (const id of ['../run.json', 'nope', '.sharded', ''])
        expect((await fetch(`${address}trial.json?id=${encodeURIComponent(id)}`)).status).toBe(404);
    } finally {
      child.kill('SIGINT');
    }
    await child;
  });

  // last: it changes the run folder
  it('--resume runs only the trials whose result files are gone, into their shards', async () => {
    const gone = filesUnder(dir, 'results')
      .filter((f) => f.name.endsWith('.json'))
      .slice(0, 7);
    for (const f of gone) rmSync(join(dir, 'results', f.folder, f.name));
    writeFileSync(join(dir, 'results', gone[0].folder, `.${gone[0].name}.1.1.x.tmp`), '{"half'); // a write cut short
    const r = await runCli(
      ['run', bench, '--agent', 'oracle', '--mode', 'threads', '--trials', String(TRIALS), '--resume', dir],
      { env: SHARDED },
    );
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).toContain(`${N - 7} trial(s) kept, 7 to run`);
    for (const f of gone) expect(existsSync(join(dir, 'results', f.folder, f.name))).toBe(true);
    expect(filesUnder(dir, 'results').filter((f) => f.name.endsWith('.tmp'))).toEqual([]);
    expect(readJson(join(dir, 'evaluation_report.json')).metrics.n_trials).toBe(N);
  }, 120_000);
});
