// Taking the model patch after the agent (docs/swebench.md#the-model-patch). Nothing of it runs in the
// agent's sandbox: the agent's workdir, less its `.git`, is copied to `MODEL_TREE` in a fresh sandbox
// of the instance image, and that image's own git diffs it against the image's own repository at
// `base_commit` (`git add -A` into a scratch index, then `git diff --cached <base_commit>`): new files
// included, binary files reported as git reports them (`Binary files … differ`). The agent's git
// binary, config, hooks, attributes, alternates, replace refs and objects never take part; what the
// copied tree itself holds (its `.gitattributes`, `.gitignore`) is read as git reads a work tree, with
// every setting that could run a command or reshape the output turned off. Pure: the trial runs it.
import { TESTBED } from './constants.ts';

/** Where the agent's tree is copied in the grading sandbox (removed before the patch is applied). */
export const MODEL_TREE = '/tmp/benchrig-agent-tree';

const quote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

/** Git with no system or global settings and nothing a repository or tree could start. */
const GIT = [
  'git',
  "-c safe.directory='*'",
  '-c core.fsmonitor=false',
  '-c core.hooksPath=/dev/null',
  '-c core.attributesFile=/dev/null',
  '-c core.excludesFile=/dev/null',
  '-c diff.noprefix=false',
  '-c diff.mnemonicPrefix=false',
  '-c diff.relative=false',
  '-c core.quotePath=true',
  '-c submodule.recurse=false',
].join(' ');

/**
 * A POSIX shell script that prints the diff of `tree` (the agent's copied work tree) against
 * `baseCommit` of the repository at `repo`, on stdout; exit non-zero when git fails. The repository
 * is read only: its index is copied (its entries, so tracked files a `.gitignore` names stay
 * tracked) and new objects go to a scratch folder.
 */
export function modelPatchScript(baseCommit: string, tree: string = MODEL_TREE, repo: string = TESTBED): string {
  const gitDir = `${repo}/.git`;
  return [
    `[ -d ${quote(tree)} ] && [ ! -L ${quote(tree)} ] || { echo 'the work tree is not a folder' >&2; exit 1; }`,
    'unset $(env | sed -n "s/^\\(GIT_[A-Za-z_]*\\)=.*/\\1/p")',
    'export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_ATTR_NOSYSTEM=1 HOME=/nonexistent XDG_CONFIG_HOME=/nonexistent',
    'export GIT_TERMINAL_PROMPT=0 GIT_PAGER=cat GIT_NO_REPLACE_OBJECTS=1 GIT_OPTIONAL_LOCKS=0',
    'scratch="$(mktemp -d /tmp/benchrig-diff.XXXXXX)" || exit 1',
    'trap \'rm -rf "$scratch"\' EXIT',
    'mkdir "$scratch/objects" || exit 1',
    `cp ${quote(`${gitDir}/index`)} "$scratch/index" 2>/dev/null || rm -f "$scratch/index"`,
    `export GIT_DIR=${quote(gitDir)} GIT_WORK_TREE=${quote(tree)} GIT_INDEX_FILE="$scratch/index"`,
    `export GIT_OBJECT_DIRECTORY="$scratch/objects" GIT_ALTERNATE_OBJECT_DIRECTORIES=${quote(`${gitDir}/objects`)}`,
    `cd ${quote(tree)} || exit 1`,
    `${GIT} add -A >/dev/null || exit 1`,
    `${GIT} diff --cached --no-color --no-ext-diff --no-textconv ${quote(baseCommit)} || exit 1`,
    '',
  ].join('\n');
}
