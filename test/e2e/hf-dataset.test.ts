// The real CLI on benchmarks whose dataset is `hf:acme/tiny` on a loopback hub (HF_ENDPOINT),
// with a private cache (BENCHRIG_CACHE): parquet and jsonl, the commit in run.json, a rerun from
// the cache with the hub stopped, and the errors a user sees (exit 2, one line).
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { startHub, type HubServer } from '../support/hub-server.ts';

const ROWS = [
  { task_id: 1n, question: 'name a red fruit', answer: 'apple', tags: ['fruit', 'red'] },
  { task_id: 2n, question: 'name a yellow fruit', answer: 'banana', tags: ['fruit'] },
  { task_id: 9007199254740993n, question: 'name a big number', answer: 'googol', tags: [] },
];

function trainParquet(): Uint8Array {
  return new Uint8Array(
    parquetWriteBuffer({
      columnData: [
        { name: 'task_id', data: ROWS.map((r) => r.task_id) },
        { name: 'question', data: ROWS.map((r) => r.question) },
        { name: 'answer', data: ROWS.map((r) => r.answer) },
        { name: 'tags', data: ROWS.map((r) => r.tags) },
      ],
      schema: [
        { name: 'root', num_children: 4 },
        { name: 'task_id', type: 'INT64', repetition_type: 'REQUIRED' },
        { name: 'question', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
        { name: 'answer', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
        { name: 'tags', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        { name: 'element', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
      ],
    }),
  );
}

const jsonl = (rows: Array<Record<string, unknown>>) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

/** A copy of the hf-tiny fixture with some [dataset] lines changed. */
function bench(edit: (toml: string) => string = (t) => t): string {
  const dir = join(tempDir(), 'hf-tiny');
  cpSync(join(FIXTURES, 'benchmarks/hf-tiny'), dir, { recursive: true });
  const toml = join(dir, 'benchmark.toml');
  writeFileSync(toml, edit(readFileSync(toml, 'utf8')));
  return dir;
}

describe('benchrig run on a Hugging Face dataset', () => {
  let hub: HubServer;
  afterEach(async () => hub?.close());
  const env = (cache: string, extra: Record<string, string | undefined> = {}) => ({
    HF_ENDPOINT: hub.url,
    BENCHRIG_CACHE: cache,
    HF_TOKEN: undefined,
    ...extra,
  });
  const run = (dir: string, out: string, e: Record<string, string | undefined>) =>
    runCli(['run', dir, '--mode', 'single', '--output', out], { env: e });

  it('runs parquet data, records the commit, and reruns a pinned commit from the cache with the hub stopped', async () => {
    hub = await startHub();
    const commit = hub.publish('acme/tiny', {
      'README.md': '---\nlicense: mit\n---\n',
      'data/train-00000-of-00001.parquet': trainParquet(),
      'data/test-00000-of-00001.parquet': trainParquet(),
    });
    const cache = tempDir();
    const out1 = tempDir();
    const r1 = await run(bench(), out1, env(cache));
    expect(r1.stderr).not.toMatch(/unreachable|cached/);
    expect(r1.code).toBe(0);
    const dir1 = onlyRunDir(out1, 'oracle', 'hf-tiny');
    const run1 = readJson(join(dir1, 'run.json'));
    expect(run1.dataset).toEqual({
      source: 'hf:acme/tiny',
      split: 'train',
      config: 'default',
      revision: 'main',
      resolved_revision: commit,
    });
    const byId = Object.fromEntries(results(dir1).map((x) => [x.sample_id, x]));
    expect(Object.keys(byId).sort()).toEqual(['1', '2', '9007199254740993']); // the unsafe int64 kept exact, as text
    expect(byId['2']).toMatchObject({ prompt: 'name a yellow fruit', status: 'PASSED' });
    expect(readJson(join(dir1, 'evaluation_report.json')).metrics.pass_rate).toBe(1);

    // pinned to the commit, with the hub gone: served from the cache
    const pinned = bench((t) => t.replace('split = "train"', `split = "train"\nrevision = "${commit}"`));
    await hub.close();
    const out2 = tempDir();
    const r2 = await run(pinned, out2, env(cache));
    // Nothing said about the hub; the progress line ("0 errors") is not a message.
    const said = r2.stderr.split('\n').filter((l) => !l.includes(' passing · '));
    expect(said.join('\n')).not.toMatch(/unreachable|cached|error/i);
    expect(r2.code).toBe(0);
    const run2 = readJson(join(onlyRunDir(out2, 'oracle', 'hf-tiny'), 'run.json'));
    expect(run2.dataset).toMatchObject({ revision: commit, resolved_revision: commit });
    expect(run2.benchmark.version).toBe(run1.benchmark.version); // same rows, same version

    // a branch with the hub gone: the cached resolution, said on stderr
    const out3 = tempDir();
    const r3 = await run(bench(), out3, env(cache));
    expect(r3.code).toBe(0);
    expect(r3.stderr).toMatch(
      new RegExp(`hf:acme/tiny: the hub at .* is unreachable .*using the cached resolution of "main" -> ${commit}`),
    );
    expect(readJson(join(onlyRunDir(out3, 'oracle', 'hf-tiny'), 'run.json')).dataset.resolved_revision).toBe(commit);
  });

  it('runs jsonl data and makes no request when the pinned commit is cached', async () => {
    hub = await startHub();
    const rows = ROWS.map((r) => ({ ...r, task_id: `q${r.task_id}` }));
    const commit = hub.publish('acme/tiny-jsonl', {
      'train.jsonl': jsonl(rows),
      'test.jsonl': jsonl(rows.slice(0, 1)),
    });
    const cache = tempDir();
    const dir = bench((t) =>
      t
        .replace('hf:acme/tiny', 'hf:acme/tiny-jsonl')
        .replace('split = "train"', `split = "test"\nrevision = "${commit}"`),
    );
    const out = tempDir();
    const r = await run(dir, out, env(cache));
    expect(r.code).toBe(0);
    expect(results(onlyRunDir(out, 'oracle', 'hf-tiny')).map((x) => [x.sample_id, x.status])).toEqual([
      ['q1', 'PASSED'],
    ]);
    const before = hub.requests.length;
    expect(before).toBeGreaterThan(0);
    const again = await run(dir, tempDir(), env(cache));
    expect(again.code).toBe(0);
    expect(hub.requests.length).toBe(before);
  });

  it('refuses a token the hub rejects with exit 2, naming HF_TOKEN but never printing it', async () => {
    hub = await startHub({ token: 'hf_good' });
    hub.publish('acme/tiny', { 'data/train-00000-of-00001.parquet': trainParquet() });
    const out = tempDir();
    const r = await run(bench(), out, env(tempDir(), { HF_TOKEN: 'hf_bad_secret_123' }));
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/HF_TOKEN is rejected by the hub/);
    expect(r.stdout + r.stderr).not.toContain('hf_bad_secret_123');
    expect(existsSync(join(out, 'oracle'))).toBe(false);
    const ok = await run(bench(), out, env(tempDir(), { HF_TOKEN: 'hf_good' }));
    expect(ok.code).toBe(0);
  });

  it('refuses a missing split with exit 2, listing the splits there are', async () => {
    hub = await startHub();
    hub.publish('acme/tiny', {
      'data/train-00000-of-00001.parquet': trainParquet(),
      'data/test-00000-of-00001.parquet': trainParquet(),
    });
    const out = tempDir();
    const r = await run(
      bench((t) => t.replace('split = "train"', 'split = "validation"')),
      out,
      env(tempDir()),
    );
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /benchmark\.toml: key dataset\.source: hf:acme\/tiny@[0-9a-f]{7}: no split "validation" for config "default" \(splits found: test, train\)/,
    );
    expect(existsSync(join(out, 'oracle'))).toBe(false);
  });
});
