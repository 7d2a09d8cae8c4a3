// SWE-bench run for real (docs/swebench.md): the fixture project (test/fixtures/swebench-run/) in an
// image built offline from Debian's packages, graded through the CLI in fresh containers of that image.
// The oracle resolves every instance, nop none; agents that break a PASS_TO_PASS test, edit the tests,
// or tamper with git and planted reports fail; a predictions file grades to its agents' verdicts.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureImage } from '../../src/sandbox/docker/images.ts';
import type { TrialResult } from '../../src/types.ts';
import { FIXTURES, REPO, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { benchrigContainers, requireDocker } from '../support/docker.ts';

await requireDocker();
const BENCH = join(FIXTURES, 'benchmarks', 'swebench-calc');
const IDS = ['calc__calc-1', 'calc__calc-2'];
const agentPath = (name: string) => join(FIXTURES, 'agents', `${name}.ts`);

interface InstanceEntry {
  patch_exists: boolean;
  patch_successfully_applied: boolean;
  resolved: boolean;
  tests_status?: Record<'FAIL_TO_PASS' | 'PASS_TO_PASS', { success: string[]; failure: string[] }>;
}

async function run(agent: string, opts: { mode?: string; extra?: string[]; id?: string } = {}) {
  const out = tempDir();
  const cli = await runCli([
    'run',
    BENCH,
    '--agent',
    agent,
    '--mode',
    opts.mode ?? 'single',
    '--output',
    out,
    ...(opts.extra ?? []),
  ]);
  const dir = onlyRunDir(out, opts.id ?? agent.replace(/^.*\/|\.ts$/g, ''), 'swebench-calc');
  const byId = new Map<string, TrialResult>(results(dir).map((r) => [r.sample_id, r]));
  const entry = (id: string) => readJson<Record<string, InstanceEntry>>(join(dir, 'trials', id, 'report.json'))[id];
  const swe = existsSync(join(dir, 'swebench_report.json')) ? readJson(join(dir, 'swebench_report.json')) : null;
  const left = await benchrigContainers(readJson(join(dir, 'run.json')).run_id);
  return { cli, dir, byId, entry, swe, left };
}

const reason = (r: TrialResult | undefined) => r?.checks.find((c) => c.type === 'swebench')?.reason ?? '';

describe('SWE-bench run for real', () => {
  beforeAll(async () => {
    await ensureImage({
      image: 'benchrig/debian-python:1',
      build: join(REPO, 'sandboxes/debian-python'),
      trusted: true,
    });
  }, 600_000);

  it.each(['single', 'threads', 'processes'])(
    'the oracle resolves every instance (%s)',
    async (mode) => {
      const r = await run('oracle', { mode });
      expect(r.cli.code, r.cli.stderr).toBe(0);
      for (const id of IDS) {
        expect(r.byId.get(id)?.status, reason(r.byId.get(id))).toBe('PASSED');
        expect(r.entry(id).resolved).toBe(true);
        expect(readFileSync(join(r.dir, 'trials', id, 'test_output.txt'), 'utf8')).toMatch(
          /PASSED tests\/test_ops.py::test_(mul|neg)/,
        );
      }
      expect(r.swe).toMatchObject({ total_instances: 2, resolved_instances: 2, resolved_ids: IDS, schema_version: 2 });
      const preds = readFileSync(join(r.dir, 'predictions.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(preds.map((p) => [p.instance_id, p.model_name_or_path])).toEqual(IDS.map((id) => [id, 'oracle']));
      expect(preds[0].model_patch).toContain('+    return a * b');
      expect(r.byId.get(IDS[0])?.model_patch).toBe(preds[0].model_patch);
      expect(r.left).toEqual([]);
    },
    240_000,
  );

  it('nop resolves none: an empty patch, FAILED', async () => {
    const r = await run('nop');
    for (const id of IDS) {
      expect(r.byId.get(id)?.status).toBe('FAILED');
      expect(reason(r.byId.get(id))).toMatch(/empty patch/);
    }
    expect(r.swe).toMatchObject({ resolved_instances: 0, empty_patch_instances: 2, empty_patch_ids: IDS });
  }, 240_000);

  it('a fix that breaks a PASS_TO_PASS test is FAILED with that test in tests_status; its predictions grade the same', async () => {
    const r = await run(agentPath('swebench-breaks-p2p'));
    for (const id of IDS) {
      expect(r.byId.get(id)?.status).toBe('FAILED');
      const st = r.entry(id).tests_status;
      expect(st?.PASS_TO_PASS.failure).toEqual(['tests/test_ops.py::test_add']);
      expect(st?.FAIL_TO_PASS.failure).toEqual([]);
      const verdict = r.byId.get(id)?.checks[0];
      expect(verdict?.details?.tests_status).toEqual(st);
    }
    // The same patches through a predictions file: the same verdicts, the same tests_status.
    const again = await run('predictions', { extra: ['--agent-opt', `file=${join(r.dir, 'predictions.jsonl')}`] });
    for (const id of IDS) {
      expect(again.byId.get(id)?.status).toBe('FAILED');
      expect(again.entry(id)).toEqual(r.entry(id));
    }
  }, 240_000);

  it('an agent that edits the tests instead of the code is FAILED: the eval script restores them', async () => {
    const r = await run(agentPath('swebench-edits-tests'));
    for (const id of IDS) expect(r.byId.get(id)?.status).toBe('FAILED');
    expect(r.entry('calc__calc-1').tests_status?.FAIL_TO_PASS.failure).toEqual(['tests/test_ops.py::test_mul']);
  }, 240_000);

  it('a predictions file: the gold patch resolves, a patch that does not apply is FAILED saying so; a bad file is refused', async () => {
    const rows = readFileSync(join(REPO, 'test/fixtures/swebench-run/dataset.jsonl'), 'utf8').trim().split('\n');
    const gold = JSON.parse(rows[0] ?? '{}').patch as string;
    const file = join(tempDir(), 'preds.json');
    const bad =
      'diff --git a/calc/ops.py b/calc/ops.py\n--- a/calc/ops.py\n+++ b/calc/ops.py\n@@ -1,2 +1,2 @@\n-no such line\n+x\n';
    writeFileSync(
      file,
      JSON.stringify({
        'calc__calc-1': { instance_id: 'calc__calc-1', model_name_or_path: 'other', model_patch: gold },
        'calc__calc-2': { instance_id: 'calc__calc-2', model_name_or_path: 'other', model_patch: bad },
      }),
    );
    const r = await run('predictions', { extra: ['--agent-opt', `file=${file}`] });
    expect(r.byId.get('calc__calc-1')?.status).toBe('PASSED');
    expect(r.byId.get('calc__calc-2')?.status).toBe('FAILED');
    expect(reason(r.byId.get('calc__calc-2'))).toMatch(/did not apply/);
    expect(r.byId.get('calc__calc-2')?.checks[0]?.details?.patch_successfully_applied).toBe(false);
    expect(readFileSync(join(r.dir, 'trials', 'calc__calc-2', 'test_output.txt'), 'utf8')).toContain(
      '>>>>> Patch Apply Failed',
    );
    // As the official harness: no report.json for it, and an error instance, neither completed nor unresolved.
    expect(existsSync(join(r.dir, 'trials', 'calc__calc-2', 'report.json'))).toBe(false);
    expect(r.swe).toMatchObject({
      completed_ids: ['calc__calc-1'],
      resolved_ids: ['calc__calc-1'],
      unresolved_ids: [],
      error_ids: ['calc__calc-2'],
      error_instances: 1,
    });
    // A file that is not predictions is refused before anything runs (exit 2, naming the line).
    const broken = join(tempDir(), 'bad.jsonl');
    writeFileSync(broken, '{"instance_id": "calc__calc-1"}\nnot json\n');
    const refused = await runCli([
      'run',
      BENCH,
      '--agent',
      'predictions',
      '--agent-opt',
      `file=${broken}`,
      '--output',
      tempDir(),
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('bad.jsonl:2');
  }, 240_000);

  it('an agent that replaces git and plants reports and logs changes nothing; a huge diff is FAILED', async () => {
    const r = await run(agentPath('swebench-tamper'));
    for (const id of IDS) {
      expect(r.byId.get(id)?.status).toBe('FAILED');
      expect(r.entry(id).resolved).toBe(false);
      expect(readFileSync(join(r.dir, 'trials', id, 'test_output.txt'), 'utf8')).not.toContain(
        'PASSED tests/test_ops.py::test_mul',
      );
    }
    expect(r.swe).toMatchObject({ resolved_instances: 0 });
    const huge = await run(agentPath('swebench-huge-diff'));
    for (const id of IDS) {
      expect(huge.byId.get(id)?.status).toBe('FAILED');
      expect(reason(huge.byId.get(id))).toMatch(/larger than/);
      expect((huge.byId.get(id)?.model_patch ?? '').length).toBeLessThan(200_000);
    }
  }, 240_000);

  // The model patch is the agent's tree diffed by the image's own git in a fresh container: what the
  // agent did to its git, its repository's settings or its objects takes no part (docs/swebench.md#the-model-patch).
  it.each([
    ['swebench-forged-git', 'replaces git with one printing a fix it never made'],
    ['swebench-git-filter', 'forges its diff with a clean filter of its repository'],
    ['swebench-git-worktree', "points its repository's core.worktree at a fixed copy"],
  ])(
    'an agent that %s (%s) gets the diff of its tree: empty, FAILED',
    async (agent) => {
      const r = await run(agentPath(agent), { mode: 'threads' });
      expect(r.cli.code, r.cli.stderr).toBe(0);
      for (const id of IDS) {
        expect(r.byId.get(id)?.status).toBe('FAILED');
        expect(reason(r.byId.get(id))).toMatch(/empty patch/);
        expect(r.byId.get(id)?.model_patch).toBe('');
      }
      expect(r.swe).toMatchObject({ resolved_instances: 0, empty_patch_ids: IDS });
      expect(r.left).toEqual([]);
    },
    240_000,
  );

  it('an agent that hides its fix from its own git (replace refs, every file binary) is graded on its fix', async () => {
    const r = await run(agentPath('swebench-hides-fix'), { mode: 'threads' });
    for (const id of IDS) {
      expect(r.byId.get(id)?.status, reason(r.byId.get(id))).toBe('PASSED');
      expect(r.byId.get(id)?.model_patch).toContain('+    return a * b');
      expect(r.byId.get(id)?.model_patch).not.toContain('Binary files');
    }
  }, 240_000);

  it("several trials: the root files are each instance's first trial, swebench/trial-<k>/ each trial index", async () => {
    const r = await run(agentPath('swebench-second-trial'), { mode: 'threads', extra: ['--trials', '2'] });
    expect(r.cli.code, r.cli.stderr).toBe(0);
    const preds = (dir: string) =>
      readFileSync(join(dir, 'predictions.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { instance_id: string; model_patch: string })
        .sort((a, b) => a.instance_id.localeCompare(b.instance_id));
    const t1 = join(r.dir, 'swebench', 'trial-1');
    const t2 = join(r.dir, 'swebench', 'trial-2');
    expect(readJson(join(r.dir, 'swebench_report.json'))).toMatchObject({ resolved_ids: [], empty_patch_ids: IDS });
    expect(readJson(join(t1, 'swebench_report.json'))).toEqual(readJson(join(r.dir, 'swebench_report.json')));
    expect(readFileSync(join(t1, 'predictions.jsonl'), 'utf8')).toBe(
      readFileSync(join(r.dir, 'predictions.jsonl'), 'utf8'),
    );
    expect(readJson(join(t2, 'swebench_report.json'))).toMatchObject({
      total_instances: 2,
      completed_ids: IDS,
      resolved_ids: IDS,
      empty_patch_ids: [],
    });
    expect(preds(t2).map((p) => p.instance_id)).toEqual(IDS);
    for (const p of preds(t2)) expect(p.model_patch).toContain('+    return a * b');
    for (const p of preds(r.dir)) expect(p.model_patch).toBe('');
    // The resolved rate over every trial is the evaluation's pass_rate.
    expect(readJson(join(r.dir, 'evaluation_report.json'))).toMatchObject({ metrics: { pass_rate: 0.5 } });
  }, 240_000);

  it("an instance image that is missing refuses the run before it starts (exit 2), not the agent's failure", async () => {
    const dir = tempDir();
    const rows = readFileSync(join(REPO, 'test/fixtures/swebench-run/dataset.jsonl'), 'utf8').trim().split('\n');
    const missing = rows.map((l) =>
      JSON.stringify({ ...JSON.parse(l), image: 'benchrig-test/no-such-swebench-image:1' }),
    );
    writeFileSync(join(dir, 'd.jsonl'), missing.join('\n') + '\n');
    writeFileSync(
      join(dir, 'benchmark.toml'),
      'name = "swe-missing"\n[dataset]\nsource = "d.jsonl"\nformat = "swebench"\n[swebench]\ntest_command = "pytest"\n[sandbox]\nimage = "benchrig/debian-python:1"\n',
    );
    const out = tempDir();
    const r = await runCli(['run', dir, '--agent', 'oracle', '--output', out]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /image benchrig-test\/no-such-swebench-image:1 \(sample "[^"]+"\) is not on this machine: run with --pull/,
    );
    expect(existsSync(join(out, 'oracle'))).toBe(false);
  }, 240_000);

  it('--resume runs what is missing and rebuilds the SWE-bench files; evaluate re-grades from the saved test output', async () => {
    const r = await run('oracle');
    const before = readFileSync(join(r.dir, 'swebench_report.json'), 'utf8');
    // A trial lost (its result gone): --resume runs it again, and the run's files hold both instances.
    rmSync(join(r.dir, 'results', 'calc__calc-2.json'));
    rmSync(join(r.dir, 'predictions.jsonl'));
    const resumed = await runCli(['run', BENCH, '--agent', 'oracle', '--resume', r.dir]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readFileSync(join(r.dir, 'predictions.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
    expect(readJson(join(r.dir, 'swebench_report.json'))).toEqual(JSON.parse(before));
    const ev = await runCli(['evaluate', r.dir]);
    expect(ev.code, ev.stderr).toBe(0);
    for (const res of results(r.dir)) expect(res.status).toBe('PASSED');
    expect(readFileSync(join(r.dir, 'swebench_report.json'), 'utf8')).toBe(before);
  }, 240_000);
});
