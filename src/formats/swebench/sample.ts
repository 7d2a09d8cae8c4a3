// SWE-bench rows → samples (docs/swebench.md#the-format): the prompt is the problem statement (and
// the hints with `[swebench] hints`), the sandbox the instance's image at /testbed; what grades the
// instance (gold patch, test patch, test lists, eval script) is the sample's `expected`, never in
// what the agent sees (`publicSample` passes id, input and metadata only).
import type { Sample } from '../../types.ts';
import { applyPatchScript } from './apply-patch.ts';
import { TESTBED } from './constants.ts';
import { instanceKey } from './image.ts';
import { readRow } from './row.ts';

export interface SwebenchOptions {
  /** Append `hints_text` to the prompt. */
  hints?: boolean;
  /** Replaces the test run of every eval script. */
  test_command?: string;
  /** A patch that changes test configuration is FAILED (docs/swebench.md#test-configuration). */
  strict?: boolean;
}

/** A row's sample, or the problem with it (the caller adds where the row is). */
export function swebenchSample(raw: Record<string, unknown>, opts: SwebenchOptions): Sample | string {
  const read = readRow(raw, opts.test_command);
  if (typeof read === 'string') return read;
  const { row, instance } = read;
  const hints = opts.hints && row.hints_text ? `\n\n${row.hints_text}` : '';
  // Facts an agent may know (the official inference prompts name the repository and commit).
  const metadata: Record<string, unknown> = {
    instance_id: row.instance_id,
    instance_key: instanceKey(row.instance_id),
    repo: row.repo,
    base_commit: row.base_commit,
  };
  for (const key of ['version', 'created_at', 'environment_setup_commit'] as const)
    if (row[key] !== undefined) metadata[key] = row[key];
  return {
    id: row.instance_id,
    input: row.problem_statement + hints,
    expected: opts.strict ? { ...instance, strict: true } : instance,
    // The oracle applies the gold patch (docs/swebench.md#predictions-and-agents); ground truth, never the agent's.
    solution: { commands: goldPatchCommands(row.patch), reply: '' },
    metadata,
    sandbox: { workdir: TESTBED, ...(row.image !== undefined ? { image: row.image } : {}) },
  };
}

const GOLD_FILE = '/tmp/benchrig-gold.diff';

/** Writes the patch to a file (a here-document whose delimiter the patch does not hold), then applies it. */
function goldPatchCommands(patch: string): string[] {
  let delim = 'BENCHRIG_GOLD_PATCH';
  while (patch.includes(delim)) delim += '_';
  const body = patch.endsWith('\n') ? patch : `${patch}\n`;
  return [`cat > ${GOLD_FILE} <<'${delim}'\n${body}${delim}`, applyPatchScript(GOLD_FILE)];
}
