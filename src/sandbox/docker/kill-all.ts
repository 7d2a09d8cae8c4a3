// The end before grading's killer, one script for both providers that end processes in place: a
// lone Docker sandbox (DockerSandbox.endInPlace, sandbox.ts) and main's pod on Kubernetes
// (kubernetes/kill.ts KILL_ALL). Its caller runs it as it is (not under `timeout`, which it would
// kill) from the toolbox's untraceable copy (toolbox.ts TOOLBOX_INIT): a process of the agent that
// attached to the killer as it started could make it exit 0 without killing anything.
import { TOOLBOX_INIT } from './toolbox.ts';

/** The killer's exit when only live processes of other uids are left (`otherUids: 'report'`). */
export const OTHER_UIDS = 3;

/**
 * Docker's pass for each uid the killer reported: that uid's SIGKILL to every process it may signal,
 * its own (a process cannot make one of another uid: no-new-privileges, no capabilities).
 */
export const KILL_OWN_UID = 'kill -KILL -1 2>/dev/null; exit 0';

const POLL_S = 0.02;
/** ~5 s of rounds: past them, a process left alive fails the end. */
const ROUNDS = 250;
/** ~1 s of rounds for PID 1 to reap a zombie that `zombies: 'grace'` lets be. */
const ZOMBIE_ROUNDS = 50;

interface KillAll {
  /**
   * Root without capabilities may signal only its own uid's processes. 'report' (Docker, whose exec
   * runs as any uid): live processes of other uids are not waited for; the killer exits OTHER_UIDS
   * and prints their uids, one a line, for the caller to kill as each uid (KILL_OWN_UID) before it
   * runs the killer again. 'wait' (a pod, whose exec runs as one uid): waited for as any process.
   */
  otherUids: 'report' | 'wait';
  /**
   * A zombie runs nothing, but holds its pid until PID 1 reaps it. 'wait' (Docker, which restarts a
   * container whose end fails): waited for as any process. 'grace' (a pod, which cannot be
   * restarted: a failed end is the agent's error): waited for ~1 s, then let be, since a SIGCHLD
   * that PID 1's shell took just before blocking in `read` (toolbox.ts KEEP_ALIVE_SCRIPT) can leave
   * one unreaped until the next.
   */
  zombies: 'wait' | 'grace';
}

/**
 * SIGKILL to every process but PID 1 and this shell that its uid may signal (`kill -1`), which the
 * kernel sends while it holds the task list, so that no process forks its way past it and none runs
 * another instruction of its own; again each round, until every one has exited and been reaped by
 * PID 1 (their pids free for grading). Only the shell's builtins but its own `sleep`, the one process
 * exempt (a child of this shell), run from the untraceable copy too. Exit 0: only PID 1 is left (and,
 * with 'grace', zombies); OTHER_UIDS: see `otherUids`; 1: a process was left after ~5 s, its pid on
 * stderr.
 */
export function killAllScript({ otherUids, zombies }: KillAll): string {
  const report = otherUids === 'report';
  // `uid DIR`: the real uid of the process in DIR, in $u; empty once it is gone.
  const uidOf = report
    ? `uid() { u=; while read -r k v _; do [ "$k" = Uid: ] && u=$v && return; done < "$1/status"; }
uid /proc/$$
me=$u
`
    : '';
  const otherUid = report
    ? `
    uid "$d" 2>/dev/null
    [ -n "$u" ] && [ "$u" != "$me" ] && others="$others $u" && continue`
    : '';
  const end = report
    ? `[ -z "$others" ] && exit 0
for u in $others; do echo "$u"; done
exit ${OTHER_UIDS}`
    : 'exit 0';
  return `${uidOf}i=0
while :; do
  kill -KILL -1 2>/dev/null
  left=
  dead=
  others=
  for d in /proc/[0-9]*; do
    p=\${d#/proc/}
    { [ "$p" = 1 ] || [ "$p" = $$ ]; } && continue
    read -r s < "$d/stat" 2>/dev/null || continue
    set -- \${s##*) }
    [ "$2" = $$ ] && continue
    [ "$1" = Z ] && ${zombies === 'grace' ? 'dead="$dead $p"' : 'left="$left $p"'} && continue${otherUid}
    left="$left $p"
  done
  [ -z "$left" ] && { [ -z "$dead" ] || [ $i -ge ${ZOMBIE_ROUNDS} ]; } && break
  i=$((i + 1))
  [ $i -ge ${ROUNDS} ] && echo "still running:$left" >&2 && exit 1
  ${TOOLBOX_INIT} sleep ${POLL_S}
done
${end}`;
}
