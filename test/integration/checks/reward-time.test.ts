// The `reward` check reads only a reward written since its verifier started (docs/checks.md#reward),
// by the sandbox's own clock, in a real sandbox: a reward file dated before the start is not the
// verifier's, whoever left it there, and the verifier's own reward.txt then decides.
import { afterAll, describe, expect, it } from 'vitest';
import { reward } from '../../../src/checks/reward.ts';
import { DockerProvider } from '../../../src/sandbox/docker/sandbox.ts';
import type { Sandbox } from '../../../src/sandbox/types.ts';
import { benchrigContainers, requireDocker, testRunId, testSpec } from '../../support/docker.ts';
import { cfg, input } from '../../unit/checks/helpers.ts';

const ok = await requireDocker();
const runId = testRunId('reward-time');
const OLD = 'touch -d "2000-01-01 00:00:00"';

describe.skipIf(!ok)('a reward counts only when written since the verifier started', () => {
  const provider = new DockerProvider();
  let sandbox: Sandbox;
  const grade = async (command: string) => {
    await sandbox.exec('mkdir -p /logs && chmod 777 /logs');
    return reward.run(input(cfg('reward', { command }), '', undefined, { sandbox }));
  };

  afterAll(async () => {
    if (sandbox) await provider.stop(sandbox, { interrupted: false });
    expect(await benchrigContainers(runId)).toEqual([]);
  });

  it('an older reward.json does not win over the reward.txt the verifier wrote; an older reward alone is none; a new one counts', async () => {
    sandbox = await provider.start(testSpec(), { runId, sessionId: 'reward-time' });
    const v = '/logs/verifier';
    const planted = await grade(
      `echo '{"reward": 1}' > ${v}/reward.json && ${OLD} ${v}/reward.json && echo 0 > ${v}/reward.txt`,
    );
    expect(planted).toMatchObject({ passed: false, score: 0, reason: 'reward=0 (reward.txt); below 1' });
    const alone = await grade(`echo 1 > ${v}/reward.txt && ${OLD} ${v}/reward.txt`);
    expect(alone).toMatchObject({
      passed: false,
      reason: "reward.txt in /logs/verifier older than the verifier's start: not the verifier's, not read",
    });
    expect(await grade(`echo 1 > ${v}/reward.txt`)).toMatchObject({ passed: true, score: 1 });
  }, 60_000);
});
