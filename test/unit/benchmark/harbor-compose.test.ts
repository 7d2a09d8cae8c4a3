// A Harbor folder with compose tasks loads into samples that carry their environment
// (docs/benchmarks.md#compose-tasks) when `validate` or `list` load it; `run` refuses it at load
// until a provider starts several services; the version follows every service's build context.
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../../src/benchmark/load.ts';
import { FIXTURES } from '../../support/cli.ts';
import { userError } from './helpers.ts';

const COMPOSE = path.join(FIXTURES, 'harbor-compose');

describe('Harbor compose tasks', () => {
  it('load (validate, list) into a sample carrying its environment, beside its main sandbox as before', async () => {
    const b = await loadBenchmark(COMPOSE, { services: true });
    expect(b.samples.map((s) => s.id)).toEqual(['full']);
    const s = b.samples[0];
    expect(s.environment?.order).toEqual(['web', 'db', 'main']);
    expect(s.environment?.services.web.build?.context).toBe('full/environment/web');
    expect(s.sandbox).toMatchObject({ build: 'full/environment', network: 'none', memory: '256m' });
    expect(b.notes).toBeUndefined();
  });

  it('run refuses them at load with what they need, naming the task', async () => {
    const msg = await userError(loadBenchmark(COMPOSE), 'benchmark');
    expect(msg).toBe(
      'task "full" (full): compose tasks need the multi-service environment provider, which this version of benchrig does not have yet (`benchrig validate` checks them)',
    );
  });

  it("the version changes with a service's own build context", async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'benchrig-compose-v-')), 'tasks');
    cpSync(COMPOSE, dir, { recursive: true });
    const before = (await loadBenchmark(dir, { services: true })).version;
    writeFileSync(path.join(dir, 'full/environment/web/Dockerfile'), 'FROM benchrig/busybox:1\nCMD ["httpd", "-f"]\n');
    expect((await loadBenchmark(dir, { services: true })).version).not.toBe(before);
  });
});
