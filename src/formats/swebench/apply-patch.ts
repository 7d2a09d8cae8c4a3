// The official sequence that applies a model patch in the grading container (swebench 5.0.2;
// docs/swebench.md#applying-the-patch), as one POSIX shell script: each command in turn, the tree
// reset between attempts; then a reverse check (a patch already applied counts as applied).
import { APPLY_PATCH_FAIL, APPLY_PATCH_PASS, CONTAINER_PATCH_FILE, TESTBED } from './constants.ts';

const APPLY_COMMANDS = [
  'git apply --verbose',
  'git apply --verbose --3way',
  'git apply --verbose --reject',
  'patch --batch --forward --fuzz=5 -p1 -i',
] as const;

const quote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

/** The script: exit 0 after printing APPLY_PATCH_PASS when the patch applied, else exit 1 after APPLY_PATCH_FAIL. */
export function applyPatchScript(patchFile: string = CONTAINER_PATCH_FILE, workdir: string = TESTBED): string {
  const file = quote(patchFile);
  const attempts = APPLY_COMMANDS.flatMap((cmd, i) => [
    ...(i > 0 ? ['git checkout -- . ; git clean -fd'] : []),
    `if ${cmd} ${file}; then echo ${quote(`${APPLY_PATCH_PASS}: ${cmd}`)}; exit 0; fi`,
  ]);
  return [
    `cd ${quote(workdir)} || exit 1`,
    ...attempts,
    `if git apply --check --reverse ${file}; then echo ${quote(`${APPLY_PATCH_PASS}: verified already applied`)}; exit 0; fi`,
    `echo ${quote(APPLY_PATCH_FAIL)}`,
    'exit 1',
    '',
  ].join('\n');
}
