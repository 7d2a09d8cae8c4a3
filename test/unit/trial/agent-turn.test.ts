// The agent's handle on its sandbox holds for its turn only: once the turn ends every method is
// refused without touching the sandbox, and a command still running is killed before end() returns.
// A real sandbox: "did nothing" is read from the container itself.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerProvider, type DockerSandbox } from '../../../src/sandbox/docker/sandbox.ts';
import { AgentTurn, TurnOver } from '../../../src/trial/agent-turn.ts';
import type { NewEvent } from '../../../src/types.ts';
import { tempDir } from '../../support/cli.ts';
import { benchrigContainers, requireDocker, testRunId, testSpec } from '../../support/docker.ts';

const ok = await requireDocker();
const runId = testRunId('agent-turn');

describe.skipIf(!ok)("the agent's turn", () => {
  const provider = new DockerProvider();
  let sb: DockerSandbox;

  beforeAll(async () => {
    sb = await provider.start(testSpec(), { runId, sessionId: `${runId}-1` });
  });
  afterAll(async () => {
    if (sb) await provider.stop(sb, { interrupted: false });
    expect(await benchrigContainers(runId)).toEqual([]);
  });

  const startedAt = async () => (await sb.container.inspect()).State.StartedAt;

  it('lets every call through while it lasts', async () => {
    const handle = new AgentTurn().sandbox(sb);
    await handle.writeFile('during.txt', 'mine\n');
    expect((await handle.exec('cat during.txt')).stdout).toBe('mine\n');
    expect(await handle.readFile('during.txt')).toBe('mine\n');
    expect(handle.workdir).toBe('/workspace');
  });

  it('once ended, refuses every method of the handle, and none of them reaches the sandbox', async () => {
    const turn = new AgentTurn();
    const handle = turn.sandbox(sb);
    const recorded: NewEvent[] = [];
    const record = turn.record((e) => recorded.push(e));
    const llm = turn.llm({
      chat: async () => ({
        message: { role: 'assistant', content: 'hi' },
        usage: { input_tokens: 1, output_tokens: 1 },
      }),
      callsUsed: 0,
      callsLeft: null,
    });
    await turn.end();

    const before = await startedAt();
    const out = tempDir();
    const calls: Record<string, () => Promise<unknown>> = {
      exec: () => handle.exec('touch /workspace/after-exec'),
      readFile: () => handle.readFile('/etc/hostname'),
      writeFile: () => handle.writeFile('after-write.txt', 'late'),
      copyIn: () => handle.copyIn({ 'after-copy.txt': 'late' }, '.'),
      copyOut: () => handle.copyOut('/etc', out),
      restart: () => handle.restart(),
      health: () => handle.health(),
      transfer: () => handle.transfer('/etc', sb),
      'llm.chat': () => llm.chat({ messages: [] }),
    };
    for (const [name, call] of Object.entries(calls)) {
      const err = await call().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, name).toBeInstanceOf(TurnOver);
      expect((err as Error).message).toMatch(/the agent's turn is over/);
    }
    record({ type: 'log', level: 'info', message: 'after the turn' });
    expect(recorded).toEqual([]);

    const ls = await sb.exec('ls /workspace');
    expect(ls.stdout).not.toMatch(/after-/);
    expect(ls.stdout).toContain('during.txt'); // ls saw the folder the refused calls would have written to
    expect(existsSync(join(out, 'hostname'))).toBe(false);
    expect(await startedAt()).toBe(before); // not restarted
  });

  it('kills a command still running when it ends, and has waited for it when end() returns', async () => {
    const turn = new AgentTurn();
    const handle = turn.sandbox(sb);
    const running = handle.exec('(sleep 303 &); sleep 304; touch /workspace/late-exec').then(
      () => null,
      (e: unknown) => e,
    );
    await sb.exec('for i in $(seq 50); do ps -o args | grep -q "^sleep 304" && exit 0; sleep 0.1; done; exit 1');
    const t = Date.now();
    let settled = false;
    void running.then(() => (settled = true));
    await turn.end();
    expect(settled).toBe(true);
    expect(Date.now() - t).toBeLessThan(10_000);
    expect(await running).toBeInstanceOf(TurnOver);
    const ps = await sb.exec('ps -o args');
    expect(ps.stdout).not.toMatch(/sleep 30[34]/);
    expect(ps.stdout).toContain('ps -o args'); // the check really saw the process table
    expect((await sb.exec('ls /workspace')).stdout).not.toContain('late-exec');
  });
});

describe("the agent's signal", () => {
  it("aborts with the trial's own reason when the trial is stopped during the turn", () => {
    const trial = new AbortController();
    const turn = new AgentTurn(trial.signal);
    expect(turn.signal.aborted).toBe(false);
    const why = new Error('trial timed out');
    trial.abort(why);
    expect(turn.signal.aborted).toBe(true);
    expect(turn.signal.reason).toBe(why);
  });

  it('is aborted at once for a trial already stopped, and aborts with TurnOver when the turn ends', async () => {
    const stopped = new AbortController();
    stopped.abort(new Error('interrupted'));
    expect(new AgentTurn(stopped.signal).signal.reason).toBe(stopped.signal.reason);
    const trial = new AbortController();
    const turn = new AgentTurn(trial.signal);
    await turn.end();
    expect(turn.signal.reason).toBeInstanceOf(TurnOver);
    trial.abort(new Error('later'));
    expect(turn.signal.reason).toBeInstanceOf(TurnOver); // the turn is over: the later stop is not its reason
  });
});
