// Harbor task.toml as Harbor reads it: the four real Terminal-Bench 2.0 tasks in ../shared (read
// there, never copied) parse to their published values, legacy spellings included.
import { existsSync, mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readHarborTask, sizeToMb, stripCanary } from '../../../src/benchmark/harbor/task.ts';
import { harborSample } from '../../../src/benchmark/harbor/samples.ts';
import { REPO } from '../../support/cli.ts';

const TB2 = resolve(REPO, '../shared/harbor-tb2');

describe('Terminal-Bench 2.0 task.toml files', () => {
  it('are present (CI has ../shared beside the clone)', () => {
    expect(existsSync(join(TB2, 'fix-git', 'task.toml'))).toBe(true);
  });

  it.each([
    ['fix-git', { agent: 900, verifier: 900, cpus: 1, memoryMb: 2048, storageMb: 10240, image: 'alexgshaw/fix-git:20251031' }],
    ['mcmc-sampling-stan', { agent: 1800, verifier: 1800, cpus: 4, memoryMb: 8192, storageMb: 10240, image: 'alexgshaw/mcmc-sampling-stan:20251031' }],
    ['overfull-hbox', { agent: 750, verifier: 360, cpus: 2, memoryMb: 4096, storageMb: 10240, image: 'alexgshaw/overfull-hbox:20251031' }],
    ['query-optimize', { agent: 900, verifier: 1800, cpus: 1, memoryMb: 2048, storageMb: 10240, image: 'alexgshaw/query-optimize:20251031' }],
  ])('%s parses to its published values', (name, want) => {
    const t = readHarborTask(join(TB2, name));
    expect(t).toMatchObject({
      id: name,
      schemaVersion: '1.0',
      agentTimeoutS: want.agent,
      verifier: { timeoutS: want.verifier },
      environment: { cpus: want.cpus, memoryMb: want.memoryMb, storageMb: want.storageMb, dockerImage: want.image, buildTimeoutS: 600, network: 'bridge', networkMode: 'public' },
    });
    expect(t.instruction.length).toBeGreaterThan(20);
    expect(t.instruction).not.toMatch(/canary/i);
    // Terminal-Bench's own extra metadata is kept as metadata, not reported as unknown keys.
    expect(t.unknownKeys).toEqual([]);
    expect(t.metadata.difficulty).toBeDefined();
    // As a sample: its image, its limits, its timeout, the verifier's timeout for the reward check.
    const s = harborSample({ ...t, hasTests: true }, TB2);
    expect(s.sandbox).toMatchObject({ image: want.image, cpus: want.cpus, memory: `${want.memoryMb}m`, disk: `${want.storageMb}m`, network: 'bridge' });
    expect(s.limits).toEqual({ trial_timeout_s: want.agent });
    expect(s.expectations).toMatchObject({ reward: { timeout_s: want.verifier } });
  });
});

describe('task.toml details', () => {
  const task = (toml: string, instruction = 'Do it.\n') => {
    const dir = mkdtempSync(join(tmpdir(), 'harbor-'));
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
    expect(() => task('[agent]\ntimeout_sec = "soon"\n')).toThrow(/task\.toml: key agent\.timeout_sec: must be a positive number/);
    expect(() => task('[environment]\nworkdir = "app"\n')).toThrow(/environment\.workdir: must be an absolute path/);
    // a workdir that climbs with ".." is refused as a dataset row's is
    expect(() => task('[environment]\nworkdir = "/app/../../etc"\n')).toThrow(/task\.toml: key environment\.workdir: "\/app\/\.\.\/\.\.\/etc" has a "\.\." segment/);
    expect(task('[environment]\nworkdir = "/app/..data"\n').environment.workdir).toBe('/app/..data');
  });

  it('drops leading canary comment lines and the blank lines after them, nothing else', () => {
    expect(stripCanary('# BENCHMARK DATA SHOULD NEVER APPEAR. canary GUID 1\n# another canary line\n\n\nDo X.\n# not a canary\n')).toBe('Do X.\n# not a canary\n');
    expect(stripCanary('<!-- harbor-canary GUID 2 -->\n\nDo Y.')).toBe('Do Y.');
    expect(stripCanary('# Title\n\nDo Z.')).toBe('# Title\n\nDo Z.');
  });
});
