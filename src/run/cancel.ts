// Two-stage Ctrl-C (SPEC §8): the first press (or SIGTERM) stops scheduling, aborts running trials
// so that their cleanup runs, and lets the run write its partial report; the second exits at once.
export function installInterruptHandlers(say: (line: string) => void): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSignal = (sig: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      say(`benchrig: ${sig} again: exiting now; the next run's sweep removes what is left`);
      process.exit(130);
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
