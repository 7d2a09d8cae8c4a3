// Every exit code of benchrig (docs/cli.md#exit-codes) and what maps an outcome to one. Nothing else
// in src/ writes a number for an exit code.
import { BenchrigError } from './errors.ts';

export const EXIT = {
  ok: 0,
  /** The gate failed (or `validate --run` found a breach). */
  gate: 1,
  /** A user's error: a refusal at load, a bad flag, a config or a benchmark that cannot run. */
  usage: 2,
  /** Infrastructure: Docker, the model side, a full disk, every trial a SANDBOX_ERROR or MODEL_ERROR, the breaker. */
  infra: 3,
  /** An interrupted run whose interrupt was the terminal's hang-up (128 + SIGHUP), as shells report it. */
  hangup: 129,
  /** An interrupted run (Ctrl-C, SIGTERM). */
  interrupted: 130,
} as const;

/** What of a report decides an exit code (report/types.ts EvaluationReport has it). */
interface GradedRun {
  run: { status: string };
  metrics: { n_trials: number; status_counts: { SANDBOX_ERROR?: number; MODEL_ERROR?: number } };
  gate?: { passed: boolean } | null;
}

/** 3 when every trial was an infrastructure error, 1 when the gate failed, else 0 (evaluate, review). */
export function gateExitCode(report: GradedRun): number {
  const n = report.metrics.n_trials;
  const c = report.metrics.status_counts;
  if (n > 0 && (c.SANDBOX_ERROR ?? 0) + (c.MODEL_ERROR ?? 0) === n) return EXIT.infra;
  if (report.gate && !report.gate.passed) return EXIT.gate;
  return EXIT.ok;
}

/** `run`'s exit code: 130 for an interrupted run, else the gate's. */
export function exitCode(report: GradedRun): number {
  return report.run.status === 'interrupted' ? EXIT.interrupted : gateExitCode(report);
}

/** `run`'s exit code when the circuit breaker may have stopped it: a tripped breaker is infrastructure. */
export function runExitCode(report: GradedRun, breakerTripped: boolean): number {
  return breakerTripped && report.run.status !== 'interrupted' ? EXIT.infra : exitCode(report);
}

/** 130 for Ctrl-C and SIGTERM; 129 for a hang-up. */
export const interruptExitCode = (sig: NodeJS.Signals | null | undefined): number =>
  sig === 'SIGHUP' ? EXIT.hangup : EXIT.interrupted;

/** `run`'s code with the interrupt's signal: an interrupted run says which interrupt it was. */
export const withInterrupt = (code: number, interruptCode: () => number): number =>
  code === EXIT.interrupted ? interruptCode() : code;

/**
 * An error that ended a command: the model side, an agent's install, Docker and a full disk are
 * infrastructure (3); an interrupt 130; every other error a user can cause 2; anything else 3.
 */
export function errorExitCode(err: unknown): number {
  if (err instanceof BenchrigError) {
    if (
      err.kind === 'docker_unavailable' ||
      err.kind === 'unreachable' ||
      err.kind === 'storage' ||
      err.kind === 'llm' ||
      err.kind === 'sandbox'
    )
      return EXIT.infra;
    return err.kind === 'interrupted' ? EXIT.interrupted : EXIT.usage;
  }
  return EXIT.infra; // a SandboxError (Docker failed) or an internal error
}

/**
 * A job's exit code (docs/running.md#jobs): its worst cell's (an interrupt over infrastructure over a
 * refusal over a failed gate); with `--gate-any`, 0 when at least one cell passed.
 */
export function jobExitCode(cells: readonly number[], gateAny: boolean): number {
  if (gateAny && cells.some((c) => c === EXIT.ok)) return EXIT.ok;
  return cells.reduce((worst, c) => Math.max(worst, c), EXIT.ok);
}
