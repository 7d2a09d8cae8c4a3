// The ends before grading in a pod (docs/kubernetes.md#grading): every process but PID 1 killed, by
// a shell run from the toolbox's untraceable copy (docker/toolbox.ts TOOLBOX_INIT), so that no
// process of the agent can attach to the killer as it starts and make it exit without killing.
import { TOOLBOX_BIN, TOOLBOX_INIT, untraceableArgv } from '../docker/toolbox.ts';

/**
 * Main's pod (PodSandbox.restart): SIGKILL to every process but PID 1 (the toolbox's keep-alive,
 * objects.ts, which starts none) and this shell, again each round until none is left alive; ~5 s at
 * most. Nothing else is exempt but this shell's own `sleep`, run from the untraceable copy too.
 * Zombies (dead: they run nothing) are waited for ~1 s, so that PID 1 has reaped them and their pids
 * are free for grading, but never fail it: a SIGCHLD that PID 1's shell took before blocking in `read`
 * can leave one until the next. Exit 1: one was left alive.
 */
export const KILL_ALL = `i=0
while :; do
  kill -9 -1 2>/dev/null
  left=
  dead=
  for d in /proc/[0-9]*; do
    p=\${d#/proc/}
    { [ "$p" = 1 ] || [ "$p" = $$ ]; } && continue
    read -r s < "$d/stat" 2>/dev/null || continue
    set -- \${s##*) }
    [ "$2" = $$ ] && continue
    if [ "$1" = Z ]; then dead="$dead $p"; else left="$left $p"; fi
  done
  [ -z "$left" ] && { [ -z "$dead" ] || [ $i -ge 20 ]; } && exit 0
  i=$((i + 1))
  [ $i -ge 100 ] && echo "still running:$left" >&2 && exit 1
  ${TOOLBOX_INIT} sleep 0.05
done`;

/**
 * A service's pod (PodSandbox.endBesideInit): SIGKILL to every process but its PID 1 (the service's
 * own) and this shell, five times 0.1 s apart; not waited for: PID 1 may start its children again.
 */
export const KILL_BESIDE_INIT = `for i in 1 2 3 4 5; do kill -9 -1 2>/dev/null; ${TOOLBOX_INIT} sleep 0.1; done; exit 0`;

/** A killer's argv: the untraceable shell, the toolbox's applets first on PATH. Not under `timeout`, which it would kill. */
export const killArgv = (script: string): string[] => untraceableArgv(`PATH=${TOOLBOX_BIN}\n${script}`);
