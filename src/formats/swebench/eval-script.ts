// The eval script of an instance (docs/swebench.md#eval-scripts): the row's own `eval_script`, else
// one made as the official harness made them from `test_patch` and the official test command of the
// repository's version (specs.generated.ts); `[swebench] test_command` replaces the test run. The
// test command's exit status is echoed after the end marker, as swebench 5.0.2 does.
import {
  END_TEST_OUTPUT,
  HEREDOC_DELIMITER,
  START_TEST_OUTPUT,
  TEST_EXIT_CODE,
  TEST_EXIT_CODE_VAR,
  TESTBED,
} from './constants.ts';
import { calypsoTestCommands } from './calypso-commands.ts';
import { modifiedFiles, testDirectives } from './patch-files.ts';
import { OFFICIAL_SPECS } from './specs.generated.ts';
import type { OfficialSpec } from './specs.ts';

interface EvalScriptInput {
  repo: string;
  version?: string;
  base_commit: string;
  test_patch: string;
  eval_script?: string;
}

const START = `: '${START_TEST_OUTPUT}'`;
const END = `: '${END_TEST_OUTPUT}'`;
/** Repositories whose official test commands were made per instance by code, not the table's. */
const CUSTOM_COMMANDS: Record<string, (row: EvalScriptInput) => string[]> = {
  'Automattic/wp-calypso': (row) => calypsoTestCommands(row.test_patch, row.version),
};

/** The official spec of a repository's version, or why there is none. */
function officialSpec(repo: string, version: string | undefined): { ext: string; spec: OfficialSpec } | string {
  const entry = OFFICIAL_SPECS[repo];
  if (!entry) return `benchrig knows no official test command for repository "${repo}"`;
  const spec = version === undefined ? undefined : entry.versions[version];
  if (!spec?.test_cmd)
    return `benchrig knows no official test command for ${repo} version ${JSON.stringify(version ?? null)}`;
  return { ext: entry.ext, spec };
}

/** The eval script to run with bash in the grading container, or why none can be made. */
export function evalScript(row: EvalScriptInput, testCommand?: string): string | { problem: string } {
  let lines: string[];
  if (row.eval_script !== undefined) lines = scriptLines(row.eval_script);
  else {
    const found = officialSpec(row.repo, row.version);
    if (typeof found === 'string') {
      if (testCommand === undefined)
        return { problem: `has no eval_script and ${found}: add the row's eval_script or set [swebench] test_command` };
      lines = commonLines(row, {}, [testCommand]);
    } else
      lines =
        found.ext === 'py'
          ? pythonLines(row, found.spec)
          : commonLines(row, found.spec, CUSTOM_COMMANDS[row.repo]?.(row) ?? testCmds(found.spec));
  }
  if (testCommand !== undefined) {
    const replaced = replaceTestRun(lines, testCommand);
    if (!replaced)
      return {
        problem: `has an eval_script without the lines ${START} and ${END}, so [swebench] test_command cannot replace its test run`,
      };
    lines = replaced;
  }
  return ['#!/bin/bash', 'set -uxo pipefail', ...recordExitCode(lines)].join('\n') + '\n';
}

/** A row's script without its shebang and `set` line (as the official parse_eval_script). */
function scriptLines(script: string): string[] {
  return script
    .trim()
    .split('\n')
    .filter((l) => l !== '#!/bin/bash' && l !== 'set -uxo pipefail');
}

function recordExitCode(lines: string[]): string[] {
  const i = lines.findIndex((l) => l.includes(END_TEST_OUTPUT));
  if (i < 0) return lines;
  return [
    ...lines.slice(0, i),
    `${TEST_EXIT_CODE_VAR}=$?`,
    lines[i] ?? '',
    `echo "${TEST_EXIT_CODE}: $${TEST_EXIT_CODE_VAR}"`,
    ...lines.slice(i + 1),
  ];
}

function replaceTestRun(lines: string[], command: string): string[] | null {
  const start = lines.indexOf(START);
  const end = lines.indexOf(END);
  if (start < 0 || end < start) return null;
  return [...lines.slice(0, start + 1), command, ...lines.slice(end)];
}

const testCmds = (spec: OfficialSpec): string[] =>
  typeof spec.test_cmd === 'string' ? [spec.test_cmd] : (spec.test_cmd ?? []);
const heredoc = (cmd: string, text: string) => `${cmd} - <<'${HEREDOC_DELIMITER}'\n${text}\n${HEREDOC_DELIMITER}`;

/** The official Python layout: conda env `testbed`, the test command given the test patch's files. */
function pythonLines(row: EvalScriptInput, spec: OfficialSpec): string[] {
  const reset = `git checkout ${row.base_commit} ${modifiedFiles(row.test_patch).join(' ')}`;
  const activate = ['source /opt/miniconda3/bin/activate', 'conda activate testbed'];
  return [
    ...activate,
    `cd ${TESTBED}`,
    ...(spec.eval_commands ?? []),
    `git config --global --add safe.directory ${TESTBED}`,
    `cd ${TESTBED}`,
    'git status',
    'git show',
    `git -c core.fileMode=false diff ${row.base_commit}`,
    ...activate,
    ...(spec.install !== undefined ? [spec.install] : []),
    reset,
    heredoc('git apply -v', row.test_patch),
    START,
    [...testCmds(spec), ...testDirectives(row.test_patch, row.repo)].join(' '),
    END,
    reset,
  ];
}

/** The official layout of the other languages: reset, apply the test patch, build, run. */
function commonLines(row: EvalScriptInput, spec: OfficialSpec, tests: string[]): string[] {
  const files = modifiedFiles(row.test_patch);
  const reset = files.length ? `git checkout ${row.base_commit} ${files.join(' ')}` : 'echo "No test files to reset"';
  return [
    `cd ${TESTBED}`,
    `git config --global --add safe.directory ${TESTBED}`,
    `cd ${TESTBED}`,
    reset,
    heredoc('git apply --verbose --reject', row.test_patch),
    ...(spec.build ?? []),
    START,
    ...tests,
    END,
    reset,
  ];
}
