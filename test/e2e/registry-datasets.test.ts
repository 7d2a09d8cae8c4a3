// Benchmarks by name from a registry (docs/benchmarks.md#registries): a registry file in Harbor's format whose
// tasks live in a git repository served on loopback by `git daemon`; two versions of a dataset, a task
// that moved between them. Fetched once into the shared cache, verified on reuse, refetched when tampered.
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneEnvImages } from '../../src/sandbox/docker/prune.ts';
import { FIXTURES, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';

const hasDocker = await requireDocker();
const name = `registry-e2e-${process.pid}`;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

async function git(cwd: string, ...args: string[]): Promise<string> {
  const r = await execa('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd });
  return r.stdout.trim();
}

/** A repository with two commits: v1 holds tasks/hello and tasks/greet; v2 moved hello to bench/hello. */
async function makeRepo(base: string): Promise<{ v1: string; v2: string }> {
  const work = tempDir();
  await git(work, 'init', '-q');
  for (const t of ['hello', 'greet'])
    cpSync(join(FIXTURES, 'harbor', 'hello-txt'), join(work, 'tasks', t), { recursive: true });
  await git(work, 'add', '-A');
  await git(work, 'commit', '-qm', 'v1');
  const v1 = await git(work, 'rev-parse', 'HEAD');
  mkdirSync(join(work, 'bench'));
  await git(work, 'mv', 'tasks/hello', 'bench/hello');
  await git(work, 'commit', '-qm', 'v2: hello moved');
  const v2 = await git(work, 'rev-parse', 'HEAD');
  await git(base, 'clone', '-q', '--bare', work, 'tasks.git');
  await git(join(base, 'tasks.git'), 'config', 'uploadpack.allowAnySHA1InWant', 'true');
  return { v1, v2 };
}

describe.skipIf(!hasDocker)('benchmarks by name from a registry', () => {
  const base = tempDir();
  const cache = tempDir();
  const reg = join(tempDir(), 'registry.json');
  let daemon: ChildProcess;
  let daemonLog = '';
  let commits: { v1: string; v2: string };
  const fetchesSoFar = () => (daemonLog.match(/Request upload-pack/g) ?? []).length;
  const env = { BENCHRIG_CACHE: cache, BENCHRIG_REGISTRY: reg };
  const taskEntries = () => readdirSync(join(cache, 'registry', 'tasks'));

  beforeAll(async () => {
    commits = await makeRepo(base);
    const port = await freePort();
    const url = `git://127.0.0.1:${port}/tasks.git`;
    const task = (n: string, c: string, p: string) => ({ name: n, git_url: url, git_commit_id: c, path: p });
    const deadPort = await freePort();
    writeFileSync(
      reg,
      JSON.stringify([
        {
          name,
          version: '1.0',
          description: 'first',
          tasks: [task('hello', commits.v1, 'tasks/hello'), task('greet', commits.v1, 'tasks/greet')],
        },
        {
          name,
          version: '2.0',
          description: 'second',
          tasks: [task('hello', commits.v2, 'bench/hello'), task('greet', commits.v2, 'tasks/greet')],
        },
        {
          name: 'unreachable-repo',
          version: '1.0',
          tasks: [{ ...task('gone', commits.v1, 'tasks/hello'), git_url: `git://127.0.0.1:${deadPort}/tasks.git` }],
        },
        { name: 'missing-commit', version: '1.0', tasks: [task('ghost', 'f'.repeat(40), 'tasks/hello')] },
      ]),
    );
    daemon = spawn('git', [
      'daemon',
      '--reuseaddr',
      `--base-path=${base}`,
      '--export-all',
      `--port=${port}`,
      '--listen=127.0.0.1',
      '--verbose',
      base,
    ]);
    daemon.stderr?.on('data', (d: Buffer) => (daemonLog += d.toString()));
    for (let i = 0; i < 100 && !(await execa('git', ['ls-remote', url], { reject: false })).stdout; i++)
      await new Promise((r) => setTimeout(r, 100));
  });
  afterAll(async () => {
    daemon?.kill();
    await pruneEnvImages({ benchmark: name });
  });

  it('lists and shows the datasets of the registry', async () => {
    const list = await runCli(['datasets', 'list'], { env });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(`${name}@2.0`);
    expect(list.stdout.indexOf(`${name}@2.0`)).toBeLessThan(list.stdout.indexOf(`${name}@1.0`));
    const show = await runCli(['datasets', 'show', `${name}@2.0`], { env });
    expect(show.stdout).toContain(`hello  git://127.0.0.1`);
    expect(show.stdout).toContain(`${commits.v2}  bench/hello`);
  });

  it('two runs at once fetch each task into one cache; a second run fetches nothing; a tampered task is refetched', async () => {
    const [outA, outB] = [tempDir(), tempDir()];
    const [a, b] = await Promise.all(
      [outA, outB].map((out) => runCli(['run', `${name}@1.0`, '--agent', 'oracle', '--output', out], { env })),
    );
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const dir = onlyRunDir(outA, 'oracle', name);
    expect(
      results(dir)
        .map((r) => [r.task_id, r.status])
        .sort(),
    ).toEqual([
      ['greet', 'PASSED'],
      ['hello', 'PASSED'],
    ]);
    const dataset = readJson(join(dir, 'run.json')).dataset;
    expect(dataset).toMatchObject({ source: 'registry', registry: reg, name, version: '1.0' });
    // its identity is the registry and name, not the folder it was fetched to (docs/benchmarks.md#identity)
    expect(readJson(join(dir, 'run.json')).benchmark.id).toBe(`registry:${reg}/${name}`);
    expect(dataset.tasks).toContainEqual({
      name: 'hello',
      git_url: expect.stringMatching(/^git:/),
      commit: commits.v1,
      path: 'tasks/hello',
    });
    expect(taskEntries()).toHaveLength(2);
    expect(readdirSync(join(cache, 'registry', 'tmp'))).toEqual([]);

    const before = fetchesSoFar();
    const again = await runCli(['run', `${name}@1.0`, '--agent', 'oracle', '--output', tempDir()], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('0 fetched, 2 from the cache');
    expect(fetchesSoFar()).toBe(before);

    // The attack: the cached verifier rewritten to pass anything. Verified on reuse, it is fetched again.
    const cheat = '#!/bin/sh\necho 1 > /logs/verifier/reward.txt\n';
    for (const e of taskEntries())
      writeFileSync(join(cache, 'registry', 'tasks', e, 'task', 'tests', 'test.sh'), cheat);
    for (const v of readdirSync(join(cache, 'registry', 'views')))
      for (const t of ['hello', 'greet'])
        writeFileSync(join(cache, 'registry', 'views', v, name, t, 'tests', 'test.sh'), cheat);
    const out = tempDir();
    const nop = await runCli(['run', `${name}@1.0`, '--agent', 'nop', '--output', out], { env });
    expect(nop.code, nop.stderr).toBe(0);
    expect(fetchesSoFar()).toBeGreaterThan(before);
    expect(results(onlyRunDir(out, 'nop', name)).map((r) => r.status)).toEqual(['FAILED', 'FAILED']);
  });

  it('a bare name is the newest version; --sample fetches only what it selects; the moved task is found', async () => {
    const out = tempDir();
    const entries = existsSync(join(cache, 'registry', 'tasks')) ? taskEntries().length : 0;
    const r = await runCli(['run', name, '--agent', 'oracle', '--sample', 'hello', '--output', out], { env });
    expect(r.code, r.stderr).toBe(0);
    const dir = onlyRunDir(out, 'oracle', name);
    expect(results(dir).map((x) => [x.task_id, x.status])).toEqual([['hello', 'PASSED']]);
    const dataset = readJson(join(dir, 'run.json')).dataset;
    expect(dataset.version).toBe('2.0');
    expect(dataset.tasks).toEqual([
      { name: 'hello', git_url: expect.any(String), commit: commits.v2, path: 'bench/hello' },
    ]);
    expect(taskEntries()).toHaveLength(entries + 1);
  });

  it('errors name the dataset, the task and what failed', async () => {
    const unknown = await runCli(['run', `${name.slice(0, -1)}@1.0`, '--agent', 'nop'], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(`did you mean "${name}"`);
    const version = await runCli(['run', `${name}@3.0`, '--agent', 'nop'], { env });
    expect(version.code).toBe(2);
    expect(version.stderr).toContain('its versions: 2.0, 1.0');
    const gone = await runCli(['run', 'unreachable-repo@1.0', '--agent', 'nop'], { env });
    expect(gone.code).toBe(3);
    expect(gone.stderr).toMatch(
      /dataset unreachable-repo@1\.0, task "gone": repository git:\/\/127\.0\.0\.1:\d+\/tasks\.git cannot be reached/,
    );
    const ghost = await runCli(['run', 'missing-commit@1.0', '--agent', 'nop'], { env });
    expect(ghost.code).toBe(2);
    expect(ghost.stderr).toContain(
      `dataset missing-commit@1.0, task "ghost": commit ${'f'.repeat(40)} is not in repository`,
    );
  });
});
