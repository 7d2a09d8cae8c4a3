// The ends before grading in a pod (docs/kubernetes.md#grading): every process but PID 1 killed, by
// a shell run from the toolbox's untraceable copy (docker/toolbox.ts TOOLBOX_INIT), so that no
// process of the agent can attach to the killer as it starts and make it exit without killing.
import { killAllScript } from '../docker/kill-all.ts';
import { TOOLBOX_BIN, TOOLBOX_INIT, untraceableArgv } from '../docker/toolbox.ts';

/**
 * Main's pod (PodSandbox.restart): Docker's killer of the end in place (docker/kill-all.ts), around
 * PID 1 (the toolbox's keep-alive, objects.ts, which starts none): ~5 s at most for every process to
 * end. A pod's exec runs as one uid, so a live process it cannot signal fails the end as any other;
 * and a pod cannot be restarted whole, so a zombie that PID 1 has not reaped after ~1 s is let be
 * rather than fail it. Exit 1: one was left alive.
 */
export const KILL_ALL = killAllScript({ otherUids: 'wait', zombies: 'grace' });

/**
 * A service's pod (PodSandbox.endBesideInit): SIGKILL to every process but its PID 1 (the service's
 * own) and this shell, five times 0.1 s apart; not waited for: PID 1 may start its children again.
 */
export const KILL_BESIDE_INIT = `for i in 1 2 3 4 5; do kill -9 -1 2>/dev/null; ${TOOLBOX_INIT} sleep 0.1; done; exit 0`;

/** A killer's argv: the untraceable shell, the toolbox's applets first on PATH. Not under `timeout`, which it would kill. */
export const killArgv = (script: string): string[] => untraceableArgv(`PATH=${TOOLBOX_BIN}\n${script}`);
