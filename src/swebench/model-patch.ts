// Taking the model patch after the agent (docs/swebench.md#the-model-patch): every change of the
// workdir against the instance's base commit, new files included (`git add -A` into a scratch index,
// then `git diff --cached <base_commit>`), as text; binary files are reported as git reports them
// (`Binary files … differ`). The repository's own settings that could run commands or reshape the
// output (external diff, text conversion, fsmonitor, hooks) are turned off. Pure: the trial runs it.
import { TESTBED } from './constants.ts';

const quote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

/** Git with no system or global settings and nothing the repository's settings could start. */
const GIT = 'git -c core.fsmonitor=false -c core.hooksPath=/dev/null -c diff.noprefix=false -c core.quotePath=true';

/** A POSIX shell script that prints the diff on stdout; exit non-zero when git fails. */
export function modelPatchScript(baseCommit: string, workdir: string = TESTBED): string {
  return [
    `cd ${quote(workdir)} || exit 1`,
    'export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=/nonexistent GIT_TERMINAL_PROMPT=0 GIT_PAGER=cat',
    'idx="$(mktemp /tmp/benchrig-index.XXXXXX)" || exit 1',
    'trap \'rm -f "$idx"\' EXIT',
    // A copy of the index keeps its stat cache (a fresh one would hash every file of the repository).
    'cp .git/index "$idx" 2>/dev/null || rm -f "$idx"',
    `GIT_INDEX_FILE="$idx" ${GIT} add -A >/dev/null || exit 1`,
    `GIT_INDEX_FILE="$idx" ${GIT} diff --cached --no-color --no-ext-diff --no-textconv ${quote(baseCommit)} || exit 1`,
    '',
  ].join('\n');
}
