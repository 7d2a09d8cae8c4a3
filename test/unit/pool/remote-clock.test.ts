// A trial handed to a thread ahead of its place (threads.ts) has no clock yet: its deadline starts
// when the pool gives it a place (clockStarts), not when it is sent. A fake channel records what the
// main side would send the worker; real timers.
import { describe, expect, it } from 'vitest';
import { RemoteTrial, remoteSettings, type WorkerChannel } from '../../../src/pool/remote.ts';
import type { MainMessage } from '../../../src/pool/messages.ts';
import type { RunContext, TrialInput } from '../../../src/trial/types.ts';

const run = {
  runId: 'clock-test',
  runDir: '/nonexistent',
  limits: { trial_timeout_s: 0.2 },
  sandbox: null,
} as unknown as RunContext;
const input = {
  taskId: 't-1',
  trial: 1,
  sample: { id: 't', input: 'x', metadata: {} },
  inputHash: 'h',
} as unknown as TrialInput;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function trialOn(clockFromPool: boolean) {
  const sent: MainMessage[] = [];
  const channel: WorkerChannel = {
    send: (m) => void sent.push(m),
    kill: () => {},
    ...(clockFromPool ? { clockFromPool: true } : {}),
  };
  const t = new RemoteTrial(remoteSettings(run, { workers: 1, perWorker: 1, graceMs: 50 }), input, {
    signal: new AbortController().signal,
  });
  t.start(channel);
  const cancels = () => sent.filter((m) => m.type === 'cancel');
  return { t, cancels };
}

describe('RemoteTrial clock', () => {
  it('without the pool keeping the clock, the deadline runs from the send', async () => {
    const { t, cancels } = trialOn(false);
    await sleep(400); // 0.2 s timeout + 50 ms grace
    expect(cancels()).toEqual([{ type: 'cancel', id: t.id, reason: 'timeout' }]);
  });

  it('a trial waiting for its place is never timed out, and its deadline runs once it has one', async () => {
    const { t, cancels } = trialOn(true);
    await sleep(400);
    expect(cancels()).toEqual([]);
    t.clockStarts();
    t.clockStarts(); // once: a second call does not restart the clock
    await sleep(150);
    expect(cancels()).toEqual([]); // not before its own timeout
    await sleep(250);
    expect(cancels()).toEqual([{ type: 'cancel', id: t.id, reason: 'timeout' }]);
  });

  it('an environment slow to start takes nothing from the trial: its deadline runs again from the sandbox being ready', async () => {
    const sent: MainMessage[] = [];
    const channel: WorkerChannel = { send: (m) => void sent.push(m), kill: () => {} };
    const withSandbox = { ...run, sandbox: { image: 'x' } } as unknown as RunContext;
    const t = new RemoteTrial(
      remoteSettings(withSandbox, { workers: 1, perWorker: 1, graceMs: 50, sandboxStartMs: 100 }),
      input,
      { signal: new AbortController().signal },
    );
    t.start(channel); // deadline: 0.2 s timeout + 100 ms start allowance + 50 ms grace
    await sleep(300); // the environment starts slowly (services, health waits)
    t.handle({ type: 'sandbox', id: t.id, taskId: input.taskId, containerId: 'c1' });
    await sleep(200); // 500 ms after the send, 200 ms after ready
    expect(sent.filter((m) => m.type === 'cancel')).toEqual([]);
    await sleep(300);
    expect(sent.filter((m) => m.type === 'cancel')).toEqual([{ type: 'cancel', id: t.id, reason: 'timeout' }]);
  });
});
