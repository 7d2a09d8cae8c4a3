// Who is blamed when a service beside main dies (docs/sandboxes.md#who-is-blamed-for-what): the agent
// reaches its services, so one it stopped — its init killed through ctx.services, shut down over the
// network, or made to allocate past its memory bound — is the agent's doing (graded as it was left,
// or AGENT_ERROR when the agent then fails on it), never SANDBOX_ERROR, which is left out of the pass
// rate and retried and so would flatter it. A service taken away from outside (removed through the
// Docker API from the host mid-trial) is infrastructure: SANDBOX_ERROR, retried.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { docker } from '../../src/sandbox/docker/client.ts';
import { BIN, FIXTURES, REPO, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { requireDocker } from '../support/docker.ts';
import { leftovers } from '../support/leftovers.ts';

const hasDocker = await requireDocker();
const BENCH = join(FIXTURES, 'benchmarks', 'sidecar-db');
const agent = (name: string) => join(FIXTURES, 'agents', `${name}.ts`);

describe.skipIf(!hasDocker)('blame for a service beside main that died', () => {
  it.each([
    ['exec', 'AGENT_ERROR', /the agent's doing/],
    ['network', 'FAILED', /service db stopped during the trial \(container stopped, exit 3\): the agent's doing/],
    ['oom', 'FAILED', /service db stopped during the trial \(container stopped, killed for memory, exit 137\)/],
  ])(
    'an agent that stops its own db (%s) is %s, never SANDBOX_ERROR, and is not retried',
    async (how, status, why) => {
      const out = tempDir();
      const r = await runCli([
        'run',
        BENCH,
        '--agent',
        agent('stop-sidecar'),
        '--agent-opt',
        `how=${how}`,
        '--mode',
        'single',
        '--output',
        out,
      ]);
      const dir = onlyRunDir(out, 'stop-sidecar', 'sidecar-db');
      const [res] = results(dir);
      const log = readFileSync(join(dir, 'logs', 'copy.log'), 'utf8');
      expect(res.status, `${res.error?.message ?? ''}\n${log}`).toBe(status);
      expect(status === 'AGENT_ERROR' ? (res.error?.message ?? '') : log).toMatch(why);
      expect(r.stderr.split('\n').filter((l) => l.includes('infrastructure error'))).toEqual([]);
      expect(await leftovers(readJson(join(dir, 'run.json')).run_id as string)).toEqual([]);
    },
    240_000,
  );

  it.each([
    ['then solves the task', [], ''],
    [
      'then waits on it until the trial times out',
      ['--agent-opt', 'hang=1', '--trial-timeout', '10'],
      ' \\(the trial timed out meanwhile\\)',
    ],
  ])(
    'a db removed from outside mid-trial (the Docker API, from the host), the agent %s: SANDBOX_ERROR, retried, the retry passes',
    async (_what, extra, note) => {
      const out = tempDir();
      const markers = tempDir();
      const child = execa(
        'node',
        [
          BIN,
          'run',
          BENCH,
          '--agent',
          agent('sidecar-taken'),
          '--agent-opt',
          `marker_dir=${markers}`,
          ...extra,
          '--mode',
          'single',
          '--output',
          out,
        ],
        { cwd: REPO, reject: false, env: { NO_COLOR: '1' }, timeout: 300_000 },
      );
      const idFile = join(markers, 'copy.id');
      for (let i = 0; i < 2400 && !existsSync(idFile); i++) await sleep(100);
      expect(existsSync(idFile)).toBe(true);
      await docker().getContainer(readFileSync(idFile, 'utf8').trim()).remove({ force: true });
      writeFileSync(join(markers, 'copy.removed'), '');
      const r = await child;
      const dir = onlyRunDir(out, 'sidecar-taken', 'sidecar-db');
      expect(r.stderr).toMatch(
        new RegExp(
          `infrastructure error \\(service db was lost during the trial \\(container gone\\)${note}.*retrying`,
        ),
      );
      expect(results(dir).map((x) => [x.status, x.error?.message ?? null])).toEqual([['PASSED', null]]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(await leftovers(readJson(join(dir, 'run.json')).run_id as string)).toEqual([]);
    },
    300_000,
  );
});
