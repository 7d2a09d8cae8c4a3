// Published benchmarks as they are (docs/benchmarks.md#harbor-task-folders): Harbor task folders run unchanged, every task in its
// own environment, graded by its verifier's reward; and jsonl rows that bring their own sandbox.
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../src/benchmark/load.ts';
import { pruneEnvImages } from '../../src/sandbox/docker/prune.ts';
import { docker } from '../../src/sandbox/docker/client.ts';
import { FIXTURES, REPO, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { benchrigContainers, requireDocker } from '../support/docker.ts';
import type { TrialResult } from '../../src/types.ts';
import { defined } from '../support/defined.ts';

const hasDocker = await requireDocker();
const byId = (dir: string): Record<string, TrialResult> => Object.fromEntries(results(dir).map((r) => [r.task_id, r]));
const runIdOf = (dir: string) => readJson(join(dir, 'run.json')).run_id as string;

/** A copy of a fixture under a name of its own: its images are this test's alone (tags carry the name). */
function copyOf(fixture: string, name: string): string {
  const dir = join(tempDir(), name);
  cpSync(join(FIXTURES, fixture), dir, { recursive: true });
  return dir;
}

describe.skipIf(!hasDocker)('Harbor task folders', () => {
  const name = `harbor-e2e-${process.pid}`;
  const tasks = copyOf('harbor', name);
  afterAll(async () => {
    await pruneEnvImages({ benchmark: name });
  });

  it.each(['single', 'threads', 'processes'])(
    'the oracle passes every task and nop fails every one (reward 0 is FAILED), in %s mode',
    async (mode) => {
      const out = tempDir();
      const oracle = await runCli(['run', tasks, '--agent', 'oracle', '--mode', mode, '--output', out]);
      const dir = onlyRunDir(out, 'oracle', name);
      const rs = byId(dir);
      expect(Object.keys(rs).sort()).toEqual(['baked-data', 'hello-txt', 'prebuilt-image', 'two-scores']);
      for (const r of Object.values(rs))
        expect(r.status, `${r.task_id}: ${JSON.stringify(r.checks)} ${r.error?.message}`).toBe('PASSED');
      expect(oracle.code).toBe(0);
      expect(await benchrigContainers(runIdOf(dir))).toEqual([]);

      const nop = await runCli(['run', tasks, '--agent', 'nop', '--mode', mode, '--output', out]);
      const nopDir = onlyRunDir(out, 'nop', name);
      for (const r of Object.values(byId(nopDir))) {
        expect(r.status).toBe('FAILED');
        expect(r.error).toBeNull();
      }
      expect(nop.code).toBe(0); // no gate unless the user gives one
      expect(await benchrigContainers(runIdOf(nopDir))).toEqual([]);
    },
  );

  it('samples, rewards, logs and images as Harbor defines them', async () => {
    const out = tempDir();
    const first = await runCli(['run', tasks, '--agent', 'oracle', '--output', out, '--mode', 'single']);
    const dir = onlyRunDir(out, 'oracle', name);
    const rs = byId(dir);
    // instruction.md without its canary line; [metadata] in the sample's metadata
    expect(rs['hello-txt'].prompt).toBe('Create a file `/app/hello.txt` whose only line is `Hello, world!`.\n');
    expect(rs['hello-txt'].metadata.sample_metadata).toMatchObject({
      difficulty: 'easy',
      category: 'file-operations',
      tags: ['fixture'],
    });
    // reward.json with two named values: both in the check's details, the mean as the score
    const twoScores = rs['two-scores'].checks[0];
    expect(twoScores).toMatchObject({
      type: 'reward',
      passed: true,
      score: 1,
      details: { rewards: { correct: 1, line_count: 1 }, source: 'reward.json' },
    });
    // the report's mean of each reward name over gradable trials (a task without the name counts 0)
    const report = readJson(join(dir, 'evaluation_report.json'));
    expect(report.metrics.rewards).toEqual({ reward: 0.75, correct: 0.25, line_count: 0.25 });
    // /logs/agent, /logs/verifier, /logs/artifacts copied out, and named in the result
    expect(rs['hello-txt'].artifacts.kept).toEqual({
      agent: 'trials/hello-txt/logs/agent',
      verifier: 'trials/hello-txt/logs/verifier',
      artifacts: 'trials/hello-txt/logs/artifacts',
    });
    expect(readdirSync(join(dir, 'trials/hello-txt/logs/verifier')).sort()).toEqual(['reward.txt', 'test-stdout.txt']);
    expect(existsSync(join(dir, 'trials/hello-txt/logs/agent/oracle.txt'))).toBe(true);
    // runs after the first build nothing: the images are keyed by their build context's content
    expect(first.stderr + first.stdout).not.toMatch(/building benchrig-env/);
    expect(existsSync(join(dir, 'builds')) ? readdirSync(join(dir, 'builds')).length : 0).toBe(0);
  });

  it('a task that does not build is SANDBOX_ERROR naming its build log, never retried; a verifier without a reward fails', async () => {
    const faults = copyOf('harbor-faults', `${name}-faults`);
    try {
      const out = tempDir();
      const r = await runCli(['run', faults, '--agent', 'oracle', '--output', out]);
      const dir = onlyRunDir(out, 'oracle', `${name}-faults`);
      const rs = byId(dir);
      expect(rs['passes'].status).toBe('PASSED');
      expect(rs['broken-build']).toMatchObject({
        status: 'SANDBOX_ERROR',
        error: { kind: 'sandbox', retryable: false },
      });
      expect(defined(rs['broken-build'].error).message).toMatch(
        /did not build: .*this environment does not build|returned a non-zero code: 3.*\(log: builds\/.+\.log\)/s,
      );
      const log = defined(defined(rs['broken-build'].error).message.match(/\(log: (builds\/[^)]+)\)/))[1];
      expect(readFileSync(join(dir, log), 'utf8')).toContain('this environment does not build');
      expect(r.stderr).not.toMatch(/retrying/);
      expect(rs['no-reward'].status).toBe('FAILED');
      expect(rs['no-reward'].checks[0].reason).toBe(
        'the verifier wrote no reward (neither /logs/verifier/reward.json nor /logs/verifier/reward.txt)',
      );
      expect(await benchrigContainers(runIdOf(dir))).toEqual([]);
    } finally {
      await pruneEnvImages({ benchmark: `${name}-faults` });
    }
  });

  it('validate and list take a Harbor folder; validate names what a Terminal-Bench 2.0 folder lacks to run', async () => {
    const v = await runCli(['validate', tasks]);
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(new RegExp(`ok: ${name} — 4 samples, 1 check \\(reward\\)`));
    const listed = await runCli(['list', tasks]);
    expect(listed.stdout).toMatch(new RegExp(`${name}\\s+4\\s+[0-9a-f]{16}`));
    const parent = await runCli(['list', join(tasks, '..')]);
    expect(parent.stdout).toMatch(new RegExp(`${name}\\s+4\\s+`));
    // Every Terminal-Bench 2.0 field shape (test/fixtures/harbor-tb2-shapes) validates and lists.
    const shapes = await runCli(['validate', join(FIXTURES, 'harbor-tb2-shapes')]);
    expect(shapes.code).toBe(0);
    expect(shapes.stdout).toMatch(/ok: harbor-tb2-shapes — 5 samples, 1 check \(reward\)/);
    expect((await runCli(['list', join(FIXTURES, 'harbor-tb2-shapes')])).stdout).toMatch(
      /harbor-tb2-shapes\s+5\s+[0-9a-f]{16}/,
    );
    // The same tasks with only their task.toml and instruction.md: found and read as Harbor tasks,
    // then refused for what they lack, with the folder named (exit 2, no stack trace).
    const bare = join(tempDir(), 'harbor-tb2');
    for (const task of readdirSync(join(FIXTURES, 'harbor-tb2-shapes'))) {
      for (const file of ['task.toml', 'instruction.md'])
        cpSync(join(FIXTURES, 'harbor-tb2-shapes', task, file), join(bare, task, file));
    }
    const tb2 = await runCli(['validate', bare]);
    expect(tb2.code).toBe(2);
    expect(tb2.stderr.trim()).toMatch(/^benchrig: \S+harbor-tb2\/index-lookup: the task has no tests\/test\.sh$/);
  });
});

describe.skipIf(!hasDocker)('rows that bring their own sandbox', () => {
  const name = `env-rows-${process.pid}`;
  const bench = copyOf('benchmarks/env-per-sample', name);
  // the copy keeps its relative [sandbox] build path valid
  writeFileSync(
    join(bench, 'benchmark.toml'),
    readFileSync(join(bench, 'benchmark.toml'), 'utf8')
      .replace('name = "env-per-sample"', `name = "${name}"`)
      .replace('../../../../sandboxes/busybox', join(REPO, 'sandboxes/busybox')),
  );
  afterAll(async () => {
    await pruneEnvImages({ benchmark: name });
  });

  it('each row runs in its own image, built once per build context; a broken context fails only its rows; a missing image refuses the run', async () => {
    const out = tempDir();
    // A row's prebuilt image that is not here (and no --pull): refused before the run starts.
    const refused = await runCli(['run', bench, '--agent', 'oracle', '--output', out]);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(
      'image benchrig-test/not-here:1 (sample "missing-image") is not on this machine: run with --pull',
    );
    expect(existsSync(join(out, 'oracle'))).toBe(false);
    const rows = join(bench, 'tasks.jsonl');
    writeFileSync(
      rows,
      readFileSync(rows, 'utf8')
        .split('\n')
        .filter((l) => !l.includes('"missing-image"'))
        .join('\n'),
    );
    const r = await runCli(['run', bench, '--agent', 'oracle', '--output', out]);
    const dir = onlyRunDir(out, 'oracle', name);
    const rs = byId(dir);
    expect(rs['baked-1'].status).toBe('PASSED'); // the file its Dockerfile baked is there
    expect(rs['baked-2'].status).toBe('PASSED'); // same context, its own workdir (/srv)
    expect(rs['plain'].status).toBe('PASSED'); // the benchmark's own image
    expect(rs['broken']).toMatchObject({ status: 'SANDBOX_ERROR', error: { retryable: false } });
    expect(rs['missing-image']).toBeUndefined();
    expect(defined(rs['baked-1'].metadata.sandbox).image).toBe(defined(rs['baked-2'].metadata.sandbox).image);
    expect(defined(rs['baked-1'].metadata.sandbox).image).toMatch(new RegExp(`^benchrig-env/${name}:[0-9a-f]{16}$`));
    expect((r.stderr.match(/building benchrig-env\/\S+ from envs\/baked/g) ?? []).length).toBe(1);
    expect(readdirSync(join(dir, 'builds')).length).toBe(2); // baked and broken, one log each
    expect(await benchrigContainers(runIdOf(dir))).toEqual([]);
  });

  it('changing a build context changes the version; a bad row sandbox is refused at load naming the row', async () => {
    const before = (await loadBenchmark(bench, { env: {} })).version;
    writeFileSync(
      join(bench, 'envs/baked/Dockerfile'),
      readFileSync(join(bench, 'envs/baked/Dockerfile'), 'utf8') + '# changed\n',
    );
    expect((await loadBenchmark(bench, { env: {} })).version).not.toBe(before);

    const bad = (row: object) => {
      const b = join(tempDir(), `${name}-bad`);
      cpSync(bench, b, { recursive: true });
      writeFileSync(join(b, 'tasks.jsonl'), JSON.stringify({ id: 'x', input: 'y', ...row }) + '\n');
      return runCli(['validate', b]);
    };
    const unknown = await bad({ sandbox: { image: 'a', privileged: true } });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/tasks\.jsonl:1: field sandbox has unknown key "privileged"/);
    const noDockerfile = await bad({ sandbox: { build: 'envs' } });
    expect(noDockerfile.code).toBe(2);
    expect(noDockerfile.stderr).toMatch(/tasks\.jsonl:1: field sandbox \.build folder "envs" has no Dockerfile/);
  });

  it('sandbox prune removes the images benchrig built for samples, by label, never another image', async () => {
    const images = async () => (await docker().listImages()).flatMap((i) => i.RepoTags ?? []);
    const built = (await images()).filter((t) => t.startsWith(`benchrig-env/${name}:`));
    expect(built.length).toBeGreaterThan(0); // from the run above
    await docker()
      .getImage('benchrig/busybox:1')
      .tag({ repo: `benchrig-test/unlabelled-${process.pid}`, tag: '1' });
    try {
      const young = await runCli(['sandbox', 'prune', '--benchmark', name, '--older-than', '7d']);
      expect(young.code).toBe(0);
      expect(young.stdout).toMatch(/removed 0 image\(s\), kept \d+ newer than 7d/);
      const r = await runCli(['sandbox', 'prune', '--benchmark', name]);
      expect(r.stdout).toContain(`removed ${built[0]}`);
      const left = await images();
      expect(left.filter((t) => t.startsWith(`benchrig-env/${name}:`))).toEqual([]);
      expect(left).toContain(`benchrig-test/unlabelled-${process.pid}:1`);
      expect(left).toContain('benchrig/busybox:1');
      expect((await runCli(['sandbox', 'prune', '--older-than', 'soon'])).code).toBe(2);
    } finally {
      await docker()
        .getImage(`benchrig-test/unlabelled-${process.pid}:1`)
        .remove()
        .catch(() => {});
    }
  });

  it('[sandbox] image as a template over sample fields names one image per row', async () => {
    const b = copyOf('benchmarks/env-per-sample', `${name}-tpl`);
    writeFileSync(
      join(b, 'benchmark.toml'),
      '[dataset]\nsource = "tasks.jsonl"\n[sandbox]\nimage = "benchrig/{metadata.flavour}:1"\n[[checks]]\ntype = "contains"\nvalue = "x"\n',
    );
    writeFileSync(
      join(b, 'tasks.jsonl'),
      '{"id": "a", "input": "q", "metadata": {"flavour": "busybox"}}\n{"id": "b", "input": "q"}\n',
    );
    const r = await runCli(['validate', b]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /key sandbox\.image: sample "b" has no field metadata\.flavour for the image template "benchrig\/\{metadata\.flavour\}:1"/,
    );
    writeFileSync(join(b, 'tasks.jsonl'), '{"id": "a", "input": "q", "metadata": {"flavour": "busybox"}}\n');
    const bench2 = await loadBenchmark(b, { env: {} });
    expect(bench2.samples[0].sandbox).toEqual({ image: 'benchrig/busybox:1' });
  });

  it('a row that overrides only memory or env runs in the benchmark image with that key changed', async () => {
    const b = copyOf('benchmarks/env-per-sample', `${name}-keys`);
    writeFileSync(
      join(b, 'benchmark.toml'),
      '[dataset]\nsource = "tasks.jsonl"\n[sandbox]\nimage = "benchrig/busybox:1"\nmemory = "128m"\n[[checks]]\ntype = "sandbox_test"\ncommand = "sh .tests/test.sh"\n',
    );
    const limit = 'cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes';
    const rows = [
      {
        id: 'memory',
        input: 'q',
        sandbox: { memory: '96m' },
        solution: `(${limit}) > out.txt`,
        tests: { 'test.sh': '[ "$(cat out.txt)" = 100663296 ]\n' },
      },
      {
        id: 'env',
        input: 'q',
        sandbox: { env: { GREETING: 'hi there' } },
        solution: 'echo "$GREETING" > out.txt',
        tests: { 'test.sh': 'grep -qx "hi there" out.txt\n' },
      },
    ];
    writeFileSync(join(b, 'tasks.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const out = tempDir();
    const r = await runCli(['run', b, '--agent', 'oracle', '--mode', 'single', '--output', out]);
    const rs = byId(onlyRunDir(out, 'oracle', `${name}-keys`));
    for (const id of ['memory', 'env'])
      expect(rs[id].status, `${id}: ${rs[id].error?.message} ${JSON.stringify(rs[id].checks)}`).toBe('PASSED');
    expect(defined(rs.memory.metadata.sandbox).image).toBe('benchrig/busybox:1');
    expect(r.code).toBe(0);
  });
});
