import { describe, expect, it } from 'vitest';
import { exitCode, gateExitCode } from '../../../src/exit-codes.ts';
import type { EvaluationReport } from '../../../src/report/types.ts';

const report = (status: string, gatePassed: boolean | null, sandboxErrors: number, n = 4) =>
  ({
    run: { status },
    metrics: { n_trials: n, status_counts: { SANDBOX_ERROR: sandboxErrors } },
    gate: gatePassed === null ? null : { passed: gatePassed },
  }) as unknown as EvaluationReport;

describe('exit codes (docs/cli.md)', () => {
  it('run: 130 when interrupted, else the gate: 1 failed, 3 all infrastructure errors, 0 otherwise', () => {
    expect(exitCode(report('interrupted', true, 0))).toBe(130);
    expect(exitCode(report('complete', false, 0))).toBe(1);
    expect(exitCode(report('complete', true, 4))).toBe(3);
    expect(exitCode(report('complete', null, 1))).toBe(0);
  });

  it('3 also when the infrastructure errors are sandboxes and model endpoints together', () => {
    const mixed = report('complete', false, 2);
    mixed.metrics.status_counts.MODEL_ERROR = 2;
    expect(exitCode(mixed)).toBe(3);
  });

  it('evaluate and review answer with the gate even for an interrupted run', () => {
    expect(gateExitCode(report('interrupted', true, 0))).toBe(0);
    expect(gateExitCode(report('interrupted', false, 0))).toBe(1);
  });
});
