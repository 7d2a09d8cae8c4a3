// `custom`: the check's `function` names a function of the benchmark's hooks `checks` export
// (`export const checks = { name(input) { return {score, passed, reason} } }`). The name is checked
// at load; whether the hooks module exports it is known only where hooks load (the worker), so a
// missing function makes the check ungradable with a reason, not the run fail.
import type { CheckImpl } from './types.ts';
import type { CheckConfig } from '../config/schema.ts';
import type { Verdict } from '../types.ts';
import { ungradable } from './text.ts';
import { describe, SandboxError } from '../errors.ts';

function functionName(check: CheckConfig): string {
  const f = check.function;
  if (typeof f !== 'string' || !/^[A-Za-z_$][\w$]*$/.test(f))
    throw new Error(
      `check "${check.name}": function must name a function of the hooks' \`checks\` export, like function = "no_leak"`,
    );
  return f;
}

export const custom: CheckImpl = {
  needsInput: false,
  computes: true,
  validate(check) {
    functionName(check);
  },
  async run(input): Promise<Verdict> {
    const name = functionName(input.check);
    const fns = input.customChecks;
    const fn = fns && Object.hasOwn(fns, name) ? fns[name] : undefined;
    if (typeof fn !== 'function')
      return ungradable(`hooks export no check function "${name}" (export const checks = { ${name}(input) {…} })`);
    // A hook is the benchmark's own code, but it has no business with the judge's api key.
    const { judge: _judge, onEvent: _onEvent, onCall: _onCall, customChecks: _fns, ...visible } = input;
    let v: Verdict;
    try {
      v = await fn(visible);
    } catch (err) {
      // The function reads what the agent produced; if that makes it throw, the agent failed it. A
      // check that truly cannot decide returns { passed: null } instead.
      if (err instanceof SandboxError) throw err;
      return { score: 0, passed: false, reason: `custom check "${name}" threw: ${describe(err)}` };
    }
    if (!v || typeof v !== 'object')
      return ungradable(
        `custom check "${name}" returned ${v === undefined ? 'nothing' : typeof v}, not {score, passed, reason}`,
      );
    return v;
  },
};
