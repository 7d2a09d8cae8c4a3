// What a sandbox's health says once something went wrong, on a real daemon: blame rests on it
// (trial/blame.ts). A proxy in front of the local daemon plays one that shuts down or restarts.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SandboxError } from '../../../../src/errors.ts';
import { docker } from '../../../../src/sandbox/docker/client.ts';
import { DockerProvider, type DockerSandbox } from '../../../../src/sandbox/docker/sandbox.ts';
import { startDockerProxy, type DockerProxy } from '../../../support/docker-proxy.ts';
import { requireDocker, testRunId, testSpec } from '../../../support/docker.ts';
import { sweep } from '../../../../src/sandbox/docker/sweep.ts';

const ok = await requireDocker();
const runId = testRunId('health');

describe.skipIf(!ok)("a sandbox's health after a failure", () => {
  const provider = new DockerProvider();
  let proxy: DockerProxy | undefined;
  const start = (through?: DockerProxy) =>
    provider.start(
      through
        ? testSpec({ provider: { kind: 'fleet', settings: { hosts: [{ url: through.url }] } }, host: through.url })
        : testSpec(),
      {
        runId,
        sessionId: 'health',
      },
    );
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });
  afterAll(async () => void (await sweep({ runId })));

  it('a daemon shutting down answers its kept-alive connections, not a fresh one: the daemon does not count', async () => {
    proxy = await startDockerProxy();
    const sb = await start(proxy);
    await sb.readFile('/etc/hostname'); // a connection kept alive, as a busy trial has
    await proxy.stopAccepting();
    const { State } = await docker().getContainer(sb.id).inspect();
    process.kill(State.Pid, 'SIGKILL'); // the daemon's shutdown stopping it (its stop signal)
    await docker().getContainer(sb.id).wait({ condition: 'not-running' }); // (an exec in between would still run)
    const err = await sb.exec('true').then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SandboxError);
    // Usually "container is not running", answered on the old connection; under load the kept-alive
    // socket may be gone and the fresh one refused. Either way the daemon must not count as healthy.
    expect(await sb.health()).toMatchObject({ daemon: false, state: 'unknown', lost: 'the daemon does not answer' });
  });

  it('a daemon that went away and came back: what it says of the sandbox is not evidence, and grading does not restart it there', async () => {
    proxy = await startDockerProxy();
    const sb = await start(proxy);
    await proxy.down();
    await proxy.up();
    await new Promise((r) => setTimeout(r, 200));
    expect(await sb.health()).toMatchObject({ daemon: false, lost: expect.stringContaining('went away') });
    await expect(sb.restart()).rejects.toMatchObject({ name: 'SandboxError', daemon: 'unreachable' });
  });

  it('Docker killing the container is never the agent, who cannot stop it from inside; a grading restart starts afresh', async () => {
    const killed = await start();
    const own = await start();
    await docker().getContainer(killed.id).kill();
    // Its PID 1 is the toolbox's keep-alive: no signal from inside the container ends it.
    await own.exec('kill -TERM 1; kill -INT 1; kill -HUP 1; kill -KILL 1; kill -9 -1', { trusted: true });
    await new Promise((r) => setTimeout(r, 300));
    expect(await killed.health()).toEqual({
      daemon: true,
      state: 'stopped',
      exitCode: 137,
      outOfMemory: false,
      killedByInfrastructure: 'Docker',
    });
    expect(await own.health()).toEqual({ daemon: true, state: 'running', exitCode: 0, outOfMemory: false });
    await killed.restart(); // its own kill, before the new start, does not count
    expect(await killed.health()).toMatchObject({ daemon: true, state: 'running' });
    expect((await killed.health()).killedByInfrastructure).toBeUndefined();
    for (const sb of [killed, own] as DockerSandbox[]) await provider.stop(sb, { interrupted: false });
    expect(await own.health()).toEqual({ daemon: true, state: 'gone' });
  });
});
