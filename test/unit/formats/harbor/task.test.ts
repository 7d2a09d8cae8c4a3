// Harbor task.toml as Harbor reads it: the task folders of test/fixtures/harbor-tb2-shapes are written
// in every field shape Terminal-Bench 2.0 publishes (version, [metadata] with its time estimates and
// free-form flags, float timeouts, sizes as "2G" or as plain MB, gpus, allow_internet) and parse to
// their values, legacy spellings included.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readHarborTask, sizeToMb, stripCanary } from '../../../../src/formats/harbor/task.ts';
import { harborTaskDirs } from '../../../../src/formats/harbor/folder.ts';
import { harborSample } from '../../../../src/formats/harbor/samples.ts';
import { FIXTURES, tempDir } from '../../../support/cli.ts';

const TB2 = join(FIXTURES, 'harbor-tb2-shapes');

describe('Terminal-Bench 2.0 task.toml shapes', () => {
  it('are found as a dataset of task folders, sorted', () => {
    expect(harborTaskDirs(TB2)?.map((d) => d.slice(TB2.length + 1))).toEqual([
      'index-lookup',
      'matrix-stats',
      'offline-sizes',
      'tidy-markdown',
      'word-frequency',
    ]);
  });

  it.each([
    [
      'word-frequency',
      {
        agent: 900,
        verifier: 900,
        build: 600,
        cpus: 1,
        memoryMb: 2048,
        storageMb: 10240,
        network: 'bridge',
        mode: 'public',
        difficulty: 'easy',
      },
    ],
    [
      'matrix-stats',
      {
        agent: 1800,
        verifier: 1800,
        build: 600,
        cpus: 4,
        memoryMb: 8192,
        storageMb: 10240,
        network: 'bridge',
        mode: 'public',
        difficulty: 'hard',
      },
    ],
    [
      'tidy-markdown',
      {
        agent: 750,
        verifier: 360,
        build: 600,
        cpus: 2,
        memoryMb: 4096,
        storageMb: 10240,
        network: 'bridge',
        mode: 'public',
        difficulty: 'easy',
      },
    ],
    [
      'index-lookup',
      {
        agent: 900,
        verifier: 1800,
        build: 600,
        cpus: 1,
        memoryMb: 2048,
        storageMb: 10240,
        network: 'bridge',
        mode: 'public',
        difficulty: 'medium',
      },
    ],
    [
      'offline-sizes',
      {
        agent: 600,
        verifier: 300,
        build: 300,
        cpus: 1,
        memoryMb: 1024,
        storageMb: 4096,
        network: 'none',
        mode: 'no-network',
        difficulty: 'medium',
      },
    ],
  ])('%s parses to its values', (name, want) => {
    const image = `benchrig-fixtures/${name}:20250101`;
    const t = readHarborTask(join(TB2, name));
    expect(t).toMatchObject({
      id: name,
      schemaVersion: '1.0',
      agentTimeoutS: want.agent,
      verifier: { timeoutS: want.verifier },
      environment: {
        cpus: want.cpus,
        memoryMb: want.memoryMb,
        storageMb: want.storageMb,
        dockerImage: image,
        buildTimeoutS: want.build,
        network: want.network,
        networkMode: want.mode,
      },
      hasDockerfile: true,
      hasTests: true,
      hasSolution: true,
    });
    expect(t.instruction.length).toBeGreaterThan(20);
    expect(t.instruction).not.toMatch(/canary/i);
    // Terminal-Bench's own extra metadata is kept as metadata, not reported as unknown keys.
    expect(t.unknownKeys).toEqual([]);
    expect(t.metadata).toMatchObject({
      author_name: 'benchrig fixtures',
      author_email: 'fixtures@benchrig.invalid',
      difficulty: want.difficulty,
    });
    expect(typeof t.metadata.category).toBe('string');
    expect(t.metadata.tags).toEqual(expect.arrayContaining([expect.any(String)]));
    expect(t.metadata.expert_time_estimate_min).toEqual(expect.any(Number));
    expect(t.metadata.junior_time_estimate_min).toEqual(expect.any(Number));
    // As a sample: its image, its limits, its timeout, the verifier's timeout for the reward check.
    const s = harborSample(t, TB2);
    expect(s.sandbox).toMatchObject({
      image,
      build: `${name}/environment`,
      cpus: want.cpus,
      memory: `${want.memoryMb}m`,
      disk: `${want.storageMb}m`,
      network: want.network,
      build_timeout_s: want.build,
    });
    expect(s.limits).toEqual({ trial_timeout_s: want.agent });
    expect(s.expectations).toMatchObject({ reward: { timeout_s: want.verifier } });
    expect(s.metadata).toMatchObject({ difficulty: want.difficulty, harbor: { task: name, network_mode: want.mode } });
    expect(s).toMatchObject({ tests: `${name}/tests`, solution: { files: `${name}/solution`, dest: '/solution' } });
  });

  it('keeps the shapes a reader could trip on: free-form metadata flags, a canary line, a leading blank line', () => {
    expect(readHarborTask(join(TB2, 'matrix-stats')).metadata).toMatchObject({
      custom_docker_compose: true,
      moved_workdir_from_compose_to_dockerfile: true,
      tags: ['statistics', 'awk', 'numerics', 'csv'],
    });
    expect(readHarborTask(join(TB2, 'tidy-markdown')).instruction).toMatch(/^The Markdown file `\/app\/notes\.md`/);
    expect(readHarborTask(join(TB2, 'index-lookup')).instruction).toMatch(/^\nThe file `\/app\/phonebook\.tsv`/);
  });
});

describe('task.toml details', () => {
  const task = (toml: string, instruction = 'Do it.\n') => {
    const dir = tempDir('harbor-');
    writeFileSync(join(dir, 'task.toml'), toml);
    writeFileSync(join(dir, 'instruction.md'), instruction);
    mkdirSync(join(dir, 'tests'));
    writeFileSync(join(dir, 'tests', 'test.sh'), 'true\n');
    return readHarborTask(dir);
  };

  it('reads sizes as Harbor does: G×1024, M, K÷1024, or plain MB', () => {
    expect(sizeToMb('2G', 'x')).toBe(2048);
    expect(sizeToMb('512M', 'x')).toBe(512);
    expect(sizeToMb('2048K', 'x')).toBe(2);
    expect(sizeToMb(300, 'x')).toBe(300);
    expect(() => sizeToMb('lots', 'x')).toThrow(/not a size/);
  });

  it('allow_internet = false is no-network; network_mode wins; public is bridge; allowlist has no network here', () => {
    expect(task('[environment]\nallow_internet = false\n').environment.network).toBe('none');
    expect(task('[environment]\nnetwork_mode = "public"\nallow_internet = false\n').environment.network).toBe('bridge');
    expect(task('[environment]\nnetwork_mode = "allowlist"\n').environment.network).toBe('none');
    expect(task('').environment).toMatchObject({ network: 'bridge', buildTimeoutS: 600 });
    expect(task('').verifier.timeoutS).toBe(600);
    expect(task('').agentTimeoutS).toBeNull();
  });

  it('lists keys it does not know (Harbor ignores them too) and refuses wrong types naming the key', () => {
    expect(task('[environment]\nfancy = 1\n[weird]\nx = 2\n').unknownKeys).toEqual(['weird', 'environment.fancy']);
    expect(() => task('[agent]\ntimeout_sec = "soon"\n')).toThrow(
      /task\.toml: key agent\.timeout_sec: must be a positive number/,
    );
    expect(() => task('[environment]\nworkdir = "app"\n')).toThrow(/environment\.workdir: must be an absolute path/);
    // a workdir that climbs with ".." is refused as a dataset row's is
    expect(() => task('[environment]\nworkdir = "/app/../../etc"\n')).toThrow(
      /task\.toml: key environment\.workdir: "\/app\/\.\.\/\.\.\/etc" has a "\.\." segment/,
    );
    expect(task('[environment]\nworkdir = "/app/..data"\n').environment.workdir).toBe('/app/..data');
  });

  it('drops leading canary comment lines and the blank lines after them, nothing else', () => {
    expect(
      stripCanary(
        '# BENCHMARK DATA SHOULD NEVER APPEAR. canary GUID 1\n# another canary line\n\n\nDo X.\n# not a canary\n',
      ),
    ).toBe('Do X.\n# not a canary\n');
    expect(stripCanary('<!-- harbor-canary GUID 2 -->\n\nDo Y.')).toBe('Do Y.');
    expect(stripCanary('# Title\n\nDo Z.')).toBe('# Title\n\nDo Z.');
  });
});
