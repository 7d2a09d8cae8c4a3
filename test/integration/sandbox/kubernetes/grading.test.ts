// The end before grading in a pod (docs/kubernetes.md#grading) on the local cluster, against root in
// the pod that traces: PID 1 and the killer run from the toolbox's untraceable copy, so the agent can
// neither attach to them, to a trusted command, nor open PID 1's memory, while it traces its own
// processes; restart leaves PID 1 alone, with the files. perl's syscall is the agent's ptrace here.
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureImage } from '../../../../src/sandbox/docker/images.ts';
import { TOOLBOX_SHELL } from '../../../../src/sandbox/docker/toolbox.ts';
import type { Cluster } from '../../../../src/sandbox/kubernetes/client.ts';
import { startEnvironment, stopEnvironment } from '../../../../src/sandbox/kubernetes/environments.ts';
import { runInPod } from '../../../../src/sandbox/kubernetes/exec.ts';
import { killArgv } from '../../../../src/sandbox/kubernetes/kill.ts';
import { PodSandbox } from '../../../../src/sandbox/kubernetes/sandbox.ts';
import { ensureToolboxImage } from '../../../../src/sandbox/kubernetes/toolbox.ts';
import type { Environment } from '../../../../src/sandbox/provider.ts';
import { REPO } from '../../../support/cli.ts';
import { testRunId, testSpec } from '../../../support/docker.ts';
import { K8S_REGISTRY, pushImage, requireCluster } from '../../../support/kubernetes.ts';

const runId = testRunId('k8s-grading');
const DEBIAN = 'benchrig/debian:1';

/** Runs argv as given (no `timeout` beside it, whose watcher would show as a process); its stdout. */
async function raw(pod: PodSandbox, argv: string[]): Promise<string> {
  let out = '';
  const stdout = new Writable({ write: (c: Buffer, _e, done) => ((out += c.toString()), done()) });
  const stderr = new Writable({ write: (_c, _e, done) => done() });
  await runInPod(pod.target, argv, { stdout, stderr, timeoutMs: 30_000 });
  return out;
}

/** Every process of the pod but the listing's shell, as `pid ppid comm state`. */
const LIST =
  'for d in /proc/[0-9]*; do p=${d#/proc/}; [ $p = $$ ] && continue; read -r s < $d/stat 2>/dev/null || continue; c=${s#*(}; set -- ${s##*) }; echo "$p $2 ${c%) *} $1"; done';

describe('the end before grading in a pod, against root that traces', () => {
  let cluster: Cluster;
  let env: Environment | undefined;
  const pod = (): PodSandbox => {
    if (!(env?.main instanceof PodSandbox)) throw new Error('no pod');
    return env.main;
  };

  beforeAll(async () => {
    cluster = await requireCluster();
    await ensureImage({ image: DEBIAN, build: join(REPO, 'sandboxes/debian'), trusted: true });
    const image = pushImage(DEBIAN);
    const toolbox = await ensureToolboxImage(K8S_REGISTRY);
    env = await startEnvironment(
      cluster,
      testSpec({ image }),
      { runId, sessionId: `${runId}-1` },
      { image, deadlineSeconds: 600, toolbox },
    );
  }, 300_000);
  afterAll(async () => {
    if (env) await stopEnvironment(cluster, env);
  });

  it('PID 1 cannot be traced, its memory opened or signalled by root in the pod; restart leaves it alone, with the files', async () => {
    const trace = (request: number, pid: string) =>
      `perl -e 'print syscall(101, ${request}, 0 + $ARGV[0], 0, 0) == -1 ? "refused" : "attached", "\\n"' ${pid}`;
    // PTRACE_SEIZE (0x4206) of its own process works; PTRACE_ATTACH (16) and SEIZE of PID 1 do not.
    const r = await pod().exec(
      `sleep 30 & ${trace(0x4206, '$!')}; ${trace(16, '1')}; ${trace(0x4206, '1')}; (exec 3<>/proc/1/mem) 2>/dev/null && echo opened || echo refused; kill -KILL 1; kill -TERM 1; kill -INT 1; kill -HUP 1; kill -STOP 1; kill -9 -1`,
    );
    expect(r.stdout).toBe('attached\nrefused\nrefused\nrefused\n');
    await pod().exec(
      [
        'echo work > /workspace/out.txt',
        'nohup sh -c "while :; do echo tamper >> /workspace/log; sleep 0.02; done" >/dev/null 2>&1 &',
        `setsid sh -c 'trap "" TERM INT HUP; while :; do sleep 0.05; done' >/dev/null 2>&1 &`,
        `sh -c 'kill -STOP $$; sleep 300' >/dev/null 2>&1 &`, // stopped once its output is away from the exec's
        // Children of PID 1 named as its own once were (sleep, busybox): nothing is exempt any more.
        'cp /bin/sleep /tmp/busybox; (nohup /tmp/busybox 300 >/dev/null 2>&1 &); (nohup sleep 300 >/dev/null 2>&1 &)',
        'sleep 0.5',
      ].join('\n'),
    );
    expect((await raw(pod(), [TOOLBOX_SHELL, 'sh', '-c', LIST])).split('\n').length).toBeGreaterThan(6);
    const t0 = Date.now();
    await pod().restart();
    expect(Date.now() - t0).toBeLessThan(5_000);
    // PID 1 alone, waiting on its stdin: it started nothing of its own, and no zombie is left.
    expect((await raw(pod(), [TOOLBOX_SHELL, 'sh', '-c', LIST])).trim().split('\n')).toEqual(['1 0 busybox S']);
    const lines = async () => (await pod().exec('wc -l < /workspace/log', { trusted: true })).stdout;
    const before = await lines();
    await sleep(300);
    expect(await lines()).toBe(before); // nothing writes any more
    expect(await pod().readFile('out.txt')).toBe('work\n');
    expect(await pod().health()).toMatchObject({ state: 'running' });
  });

  it("the killer's shell and a trusted command cannot be traced by root in the pod, while the agent's own command can", async () => {
    const nul = () => new Writable({ write: (_c, _e, done) => done() });
    // As the harness runs them, and the agent's own; the agent's tracer tries each once it sees them (PTRACE_SEIZE, 0x4206).
    const runs = [
      runInPod(pod().target, killArgv('sleep 60; :'), { stdout: nul(), stderr: nul(), timeoutMs: 90_000 }),
      pod().exec('sleep 60.1; :', { trusted: true, cwd: '/', timeoutMs: 90_000 }),
      pod().exec('sleep 60.2; :', { cwd: '/', timeoutMs: 90_000 }),
    ];
    const r = await pod().exec(
      String.raw`perl -e 'for (1 .. 300) { my @m; for my $d (glob "/proc/[0-9]*") { open my $f, "<", "$d/cmdline" or next; local $/; my $c = <$f>; $c =~ s/\0/ /g; push @m, [$1 ? "shell $1" : "sleep $2", 0 + (split "/", $d)[2]] if $c =~ /^(?:\S*busybox )?sh -c (?:PATH=\S+\s+)?sleep (60(?:\.[12])?); :\s*$|^sleep (60(?:\.[12])?)\s*$/ } if (@m == 6) { print "$_->[0] ", (syscall(101, 0x4206, $_->[1], 0, 0) == -1 ? "refused" : "attached"), "\n" for @m; exit } select undef, undef, undef, 0.1 }' | sort`,
      { timeoutMs: 60_000 },
    );
    await pod().restart(); // ends all three
    await Promise.all(runs);
    expect(r.stdout).toBe(
      'shell 60 refused\nshell 60.1 refused\nshell 60.2 attached\nsleep 60 refused\nsleep 60.1 refused\nsleep 60.2 attached\n',
    );
  });
});
