// Builders for check inputs and a tiny in-memory Sandbox (pure unit tests of check logic).
import type { CheckConfig } from '../../../src/config/schema.ts';
import type { CheckImpl, CheckInput } from '../../../src/checks/types.ts';
import type { ExecOptions, ExecResult, Sandbox } from '../../../src/sandbox/types.ts';
import type { Sample } from '../../../src/types.ts';

export function cfg(type: string, extra: Record<string, unknown> = {}): CheckConfig {
  return { type, name: (extra.name as string) ?? type, scope: 'response', ...extra };
}

/** A check's load-time validation, which the check must have. */
export function validate(impl: CheckImpl, check: CheckConfig): void {
  if (!impl.validate) throw new Error('the check has no validate');
  impl.validate(check);
}

export function sample(extra: Partial<Sample> = {}): Sample {
  return { id: 's1', input: 'q', metadata: {}, ...extra };
}

export function input(
  check: CheckConfig,
  response: string,
  expectation?: unknown,
  extra: Partial<CheckInput> = {},
): CheckInput {
  return {
    check,
    sample: sample(),
    expectation,
    response,
    replies: [response],
    events: [],
    finalState: {},
    blocked: false,
    artifacts: {},
    ...extra,
  };
}

export interface FakeSandbox extends Sandbox {
  calls: Array<{ cmd: string | string[]; opts?: ExecOptions }>;
}

/** A Sandbox whose exec returns a canned result (or throws), recording every call. */
export function fakeSandbox(result: Partial<ExecResult> | Error): FakeSandbox {
  const calls: FakeSandbox['calls'] = [];
  return {
    id: 'fake',
    image: 'fake:1',
    workdir: '/workspace',
    calls,
    async exec(cmd, opts) {
      calls.push({ cmd, opts });
      if (result instanceof Error) throw result;
      return { exitCode: 0, stdout: '', stderr: '', timedOut: false, truncated: false, ...result };
    },
    async readFile() {
      return '';
    },
    async writeFile() {},
    async restart() {},
    async health() {
      return { daemon: true, state: 'running' as const };
    },
    async transfer() {},
    async copyIn() {},
    async copyOut() {
      return { files: 0, dirs: 0, bytes: 0, skipped: [] };
    },
  };
}
