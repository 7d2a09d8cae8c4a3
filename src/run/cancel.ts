// Two-stage Ctrl-C (SPEC §8): the first press (or SIGTERM) stops scheduling, aborts running trials
// so that their cleanup runs, and lets the run write its partial report; the second exits at once.
import { flushTelemetry } from '../telemetry/otel.ts';

export function installInterruptHandlers(say: (line: string) => void): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSignal = (sig: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      say(`benchrig: ${sig} again: exiting now; the next run's sweep removes what is left`);
      // Finished spans still leave (a no-op when telemetry is off), but never hold the exit for long.
      void flushTelemetry(1_000).finally(() => process.exit(130));
      return;
    }
    say(`benchrig: ${sig}: stopping, removing sandboxes and writing the partial report (press Ctrl-C again to exit at once)`);
    controller.abort(new Error(`interrupted by ${sig}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
