// Two-stage Ctrl-C (docs/running.md#interrupts): the first press (or SIGTERM, or SIGHUP when the terminal closes)
// stops scheduling, aborts running trials so that their cleanup runs, and lets the run write its
// partial report; the second exits at once.
import { interruptExitCode } from '../exit-codes.ts';
import { flushTelemetry } from '../telemetry/otel.ts';

const INTERRUPT_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

interface InterruptHandlers {
  signal: AbortSignal;
  /** The exit code of an interrupted run: by the first signal received (130 before any). */
  exitCode(): number;
  dispose(): void;
}

export function installInterruptHandlers(say: (line: string) => void): InterruptHandlers {
  const controller = new AbortController();
  let first: NodeJS.Signals | null = null;
  const onSignal = (sig: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      say(`benchrig: ${sig} again: exiting now; the next run's sweep removes what is left`);
      // Finished spans still leave (a no-op when telemetry is off), but never hold the exit for long.
      // process.exit runs the 'exit' hooks: run.json and image build folders are settled there.
      void flushTelemetry(1_000).finally(() => process.exit(interruptExitCode(first)));
      return;
    }
    first = sig;
    const how = sig === 'SIGHUP' ? 'the terminal closed' : 'press Ctrl-C again to exit at once';
    say(`benchrig: ${sig}: stopping, removing sandboxes and writing the partial report (${how})`);
    controller.abort(new Error(`interrupted by ${sig}`));
  };
  for (const sig of INTERRUPT_SIGNALS) process.on(sig, onSignal);
  return {
    signal: controller.signal,
    exitCode: () => interruptExitCode(first),
    dispose() {
      // Once interrupted, a further press still exits with the interrupt's code (not killed by the
      // signal) while the process winds down.
      if (controller.signal.aborted) return;
      for (const sig of INTERRUPT_SIGNALS) process.off(sig, onSignal);
    },
  };
}
