// SWE-bench through the CLI where the official harness's rules meet a user's or an agent's surprise
// (docs/swebench.md): rows that bring their own image need no [sandbox]; a predictions file naming
// an instance the dataset lacks is refused, one lacking an instance leaves it incomplete (not an
// empty patch); a patch that adds test configuration (a conftest.py forcing passes) is flagged, and
// FAILED under [swebench] strict = true.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureImage } from '../../src/sandbox/docker/images.ts';
import type { TrialResult } from '../../src/types.ts';
import { FIXTURES, REPO, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';

await requireDocker();
const BENCH = join(FIXTURES, 'benchmarks', 'swebench-calc');
const IMAGE = 'benchrig-test/swebench-calc:1';
const ROWS = readFileSync(join(REPO, 'test/fixtures/swebench-run/dataset.jsonl'), 'utf8').trim().split('\n');
const IDS = ['calc__calc-1', 'calc__calc-2'];
const TEST_COMMAND = 'python3 -m pytest -rA -p no:cacheprovider tests';

async function run(bench: string, agent: string, extra: string[] = [], id = agent.replace(/^.*\/|\.ts$/g, '')) {
  const out = tempDir();
  const cli = await runCli(['run', bench, '--agent', agent, '--output', out, ...extra]);
  const name = readFileSync(join(bench, 'benchmark.toml'), 'utf8').match(/^name = "(.*)"/m)?.[1] ?? '';
  const dir = onlyRunDir(out, id, name);
  const byId = new Map<string, TrialResult>(results(dir).map((r) => [r.sample_id, r]));
  return { cli, dir, byId, swe: readJson(join(dir, 'swebench_report.json')) };
}

const verdict = (r: TrialResult | undefined) => r?.checks.find((c) => c.type === 'swebench');

/** A benchmark folder over the fixture's rows, each carrying its own image, with `toml` after [dataset]. */
function ownImageBenchmark(name: string, toml: string): string {
  const dir = tempDir();
  const rows = ROWS.map((l) => JSON.stringify({ ...JSON.parse(l), image: IMAGE }));
  writeFileSync(join(dir, 'd.jsonl'), rows.join('\n') + '\n');
  writeFileSync(
    join(dir, 'benchmark.toml'),
    `name = "${name}"\n[dataset]\nsource = "d.jsonl"\nformat = "swebench"\n[swebench]\ntest_command = "${TEST_COMMAND}"\n${toml}`,
  );
  return dir;
}

describe('SWE-bench: what the official harness does not guard', () => {
  beforeAll(async () => {
    await ensureImage({
      image: 'benchrig/debian-python:1',
      build: join(REPO, 'sandboxes/debian-python'),
      trusted: true,
    });
    await ensureImage({ image: IMAGE, build: join(REPO, 'test/fixtures/swebench-run/image'), trusted: true });
  }, 600_000);

  it('rows that bring their own image need no [sandbox] table, nor an image in the one they have', async () => {
    const bare = await run(ownImageBenchmark('swe-own-image', ''), 'oracle', ['--sample', 'calc__calc-1']);
    expect(bare.cli.code, bare.cli.stderr).toBe(0);
    expect(bare.byId.get('calc__calc-1')?.status, verdict(bare.byId.get('calc__calc-1'))?.reason).toBe('PASSED');
    expect(bare.swe).toMatchObject({ resolved_ids: ['calc__calc-1'] });
    // A [sandbox] table of other settings, without an image: the rows' images still do.
    const some = await runCli(['validate', ownImageBenchmark('swe-own-image-2', '[sandbox]\nmemory = "256m"\n')]);
    expect(some.code, some.stderr).toBe(0);
    expect(some.stderr).not.toMatch(/sandbox\.image/);
  }, 240_000);

  it('a predictions file naming an instance the dataset lacks is refused (exit 2, the id and its line), whatever --sample picks', async () => {
    const file = join(tempDir(), 'preds.jsonl');
    const line = (id: string) => JSON.stringify({ instance_id: id, model_name_or_path: 'm', model_patch: '' });
    writeFileSync(file, [line('calc__calc-2'), line('calc__calc-9')].join('\n') + '\n');
    const out = tempDir();
    const r = await runCli([
      'run',
      BENCH,
      '--agent',
      'predictions',
      '--agent-opt',
      `file=${file}`,
      '--sample',
      'calc__calc-1',
      '--output',
      out,
    ]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/preds\.jsonl:2: .*"calc__calc-9".* not in the dataset/);
    expect(r.stderr).not.toContain('calc__calc-2"');
    expect(r.stderr).not.toMatch(/\n\s+at /); // one message, no stack trace
  }, 60_000);

  it('an instance the predictions file lacks is incomplete, not a submitted empty patch', async () => {
    const gold = JSON.parse(ROWS[0] ?? '{}').patch as string;
    const file = join(tempDir(), 'preds.jsonl');
    writeFileSync(
      file,
      JSON.stringify({ instance_id: 'calc__calc-1', model_name_or_path: 'm', model_patch: gold }) + '\n',
    );
    const r = await run(BENCH, 'predictions', ['--agent-opt', `file=${file}`]);
    expect(r.cli.code, r.cli.stderr).toBe(0);
    expect(r.byId.get('calc__calc-1')?.status).toBe('PASSED');
    const missing = r.byId.get('calc__calc-2');
    expect(missing?.status).toBe('FAILED');
    expect(verdict(missing)?.reason).toMatch(/no prediction/);
    expect(missing?.model_patch).toBeUndefined();
    expect(r.swe).toMatchObject({
      total_instances: 2,
      submitted_instances: 1,
      submitted_ids: ['calc__calc-1'],
      incomplete_ids: ['calc__calc-2'],
      empty_patch_ids: [],
      empty_patch_instances: 0,
      resolved_ids: ['calc__calc-1'],
    });
    const preds = readFileSync(join(r.dir, 'predictions.jsonl'), 'utf8').trim().split('\n');
    expect(preds.map((l) => JSON.parse(l).instance_id)).toEqual(['calc__calc-1']);
    // Re-graded from the saved results, it stays so.
    const before = readFileSync(join(r.dir, 'swebench_report.json'), 'utf8');
    expect((await runCli(['evaluate', r.dir])).code).toBe(0);
    expect(readFileSync(join(r.dir, 'swebench_report.json'), 'utf8')).toBe(before);
    expect(verdict(results(r.dir).find((x) => x.sample_id === 'calc__calc-2'))?.reason).toMatch(/no prediction/);
  }, 240_000);

  const CONFTEST_AGENT = join(FIXTURES, 'agents', 'swebench-conftest-pass.ts');

  it('a conftest.py that forces passes resolves as in the official harness, but is flagged', async () => {
    const r = await run(BENCH, CONFTEST_AGENT, ['--mode', 'threads']);
    expect(r.cli.code, r.cli.stderr).toBe(0);
    for (const id of IDS) {
      const v = verdict(r.byId.get(id));
      expect(r.byId.get(id)?.status, v?.reason).toBe('PASSED'); // official parity
      expect(v?.details?.suspicious).toEqual([expect.stringMatching(/^conftest\.py: /)]);
      // report.json stays the official entry
      expect(readJson(join(r.dir, 'trials', id, 'report.json'))[id]).toMatchObject({ resolved: true });
      expect(readJson(join(r.dir, 'trials', id, 'report.json'))[id]).not.toHaveProperty('suspicious');
    }
    expect(r.swe).toMatchObject({ resolved_ids: IDS, suspicious_ids: IDS });
  }, 240_000);

  it('[swebench] strict = true FAILS a patch that adds a conftest.py, saying so', async () => {
    const strict = join(tempDir(), 'strict.toml');
    writeFileSync(strict, '[swebench]\nstrict = true\n');
    const r = await run(BENCH, CONFTEST_AGENT, ['--config', strict, '--mode', 'threads']);
    expect(r.cli.code, r.cli.stderr).toBe(0);
    for (const id of IDS) {
      expect(r.byId.get(id)?.status).toBe('FAILED');
      expect(verdict(r.byId.get(id))?.reason).toMatch(
        /^test configuration changed \(\[swebench\] strict\): conftest\.py: a conftest\.py/,
      );
    }
    expect(r.swe).toMatchObject({ resolved_ids: [], unresolved_ids: IDS, suspicious_ids: IDS });
  }, 240_000);
});
