// A Harbor folder with compose tasks loads into samples that carry their environment
// (docs/benchmarks.md#compose-tasks) whoever loads it (run, validate, list); the version follows
// every service's build context.
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../../../src/benchmark/load.ts';
import { FIXTURES, tempDir } from '../../../support/cli.ts';
import { userError } from '../../benchmark/helpers.ts';

const COMPOSE = path.join(FIXTURES, 'harbor-compose');

describe('Harbor compose tasks', () => {
  it('load (validate, list) into a sample carrying its environment, beside its main sandbox as before', async () => {
    const b = await loadBenchmark(COMPOSE, {});
    expect(b.samples.map((s) => s.id)).toEqual(['full']);
    const s = b.samples[0];
    expect(s.environment?.order).toEqual(['web', 'db', 'main']);
    expect(s.environment?.services.web.build?.context).toBe('full/environment/web');
    expect(s.sandbox).toMatchObject({ build: 'full/environment', network: 'none', memory: '256m' });
    expect(b.notes).toBeUndefined();
  });

  it('run loads them (the provider starts their services)', async () => {
    const b = await loadBenchmark(COMPOSE);
    expect(b.samples[0].environment?.order).toEqual(['web', 'db', 'main']);
  });

  it("the version changes with a service's own build context", async () => {
    const dir = path.join(tempDir('benchrig-compose-v-'), 'tasks');
    cpSync(COMPOSE, dir, { recursive: true });
    const before = (await loadBenchmark(dir, {})).version;
    writeFileSync(path.join(dir, 'full/environment/web/Dockerfile'), 'FROM benchrig/busybox:1\nCMD ["httpd", "-f"]\n');
    expect((await loadBenchmark(dir, {})).version).not.toBe(before);
  });

  it("a service's build context with an executable prepare.sh, or an image that is not a plain reference, is refused naming the task and key", async () => {
    const dir = path.join(tempDir('benchrig-compose-h-'), 'tasks');
    cpSync(COMPOSE, dir, { recursive: true });
    const marker = path.join(dir, 'ran');
    writeFileSync(path.join(dir, 'full/environment/web/prepare.sh'), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    const msg = await userError(loadBenchmark(dir, {}), 'benchmark');
    expect(msg).toMatch(/^task "full" \(.*docker-compose\.yaml\): key services\.web\.build: .*prepare\.sh/);
    expect(existsSync(marker)).toBe(false);
    rmSync(path.join(dir, 'full/environment/web/prepare.sh'));
    const file = path.join(dir, 'full/environment/docker-compose.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('image: benchrig/busybox:1', 'image: ../../127.0.0.1/x'));
    expect(await userError(loadBenchmark(dir, {}), 'benchmark')).toMatch(/key services\.db\.image: /);
  });
});
