// support-desk is solvable and not trivially passed: the oracle passes every sample, nop none.
// The customer is an LLM user; here the scripted server plays a customer who is satisfied at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';
import { startModelServer, type ModelServer } from '../support/model-server.ts';
import { join } from 'node:path';
import { modelEnv } from './models-helpers.ts';
import type { ExecOutput } from '../../src/types.ts';

const hasDocker = await requireDocker();

describe.skipIf(!hasDocker)('support-desk', () => {
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer(() => ({ content: 'Thank you, that is all. ###STOP###' }));
  });
  afterAll(() => server?.close());

  for (const [agent, want] of [
    ['oracle', 'PASSED'],
    ['nop', 'FAILED'],
  ] as const) {
    it(`${agent}: every one of the 12 samples is ${want}`, async () => {
      const o = tempDir('benchrig-sd-');
      await runCli(['run', 'support-desk', '--agent', agent, '--mode', 'single', '--output', o, '--quiet'], {
        env: modelEnv(server.url),
      });
      const dir = onlyRunDir(o, agent, 'support-desk');
      const res = results(dir);
      expect(res).toHaveLength(12);
      const off = res
        .filter((x) => x.status !== want)
        .map((x) => `${x.task_id}: ${x.status} ${x.checks.map((c) => c.reason).join(' | ')} ${x.error?.message ?? ''}`);
      expect(off).toEqual([]);
      if (agent === 'oracle') {
        expect(
          res.every((x) => typeof (x.artifacts['state:database'] as ExecOutput | undefined)?.stdout === 'string'),
        ).toBe(true);
        expect(readJson(join(dir, 'evaluation_report.json')).metrics.pass_rate).toBe(1);
      }
    }, 300_000);
  }
});
