// The command line (docs/cli.md). No logic of its own: parse, call, map errors to exit codes.
import { Command, CommanderError, Option } from 'commander';
import { BenchrigError, describe, SandboxError } from '../errors.ts';
import { HARNESS_VERSION } from '../run/run-dir.ts';
import { registerRun } from './run.ts';
import { registerTools } from './tools.ts';
import { registerReportCommands } from './report-commands.ts';
import { registerCrossRun } from './cross-run.ts';
import { registerExport } from './export.ts';
import { registerDatasets } from './datasets.ts';
import { guardStdio } from './stdio.ts';
import { errorExitCode, EXIT } from '../exit-codes.ts';

export { EXIT };

export function buildProgram(): Command {
  const program = new Command('benchrig')
    .description('Run LLM-agent benchmarks in Docker sandboxes and grade them')
    .version(HARNESS_VERSION)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  registerRun(program);
  registerTools(program);
  registerReportCommands(program);
  registerCrossRun(program);
  registerExport(program);
  registerDatasets(program);
  for (const cmd of program.commands) cmd.exitOverride();
  return program;
}

export async function main(argv: string[]): Promise<void> {
  guardStdio(); // a closed pipe or terminal drops output; it never stops a run
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    process.exitCode = exitCodeFor(err);
  }
  process.exitCode = Number(process.exitCode ?? 0);
  exitSoonAnyway(process.exitCode);
}

/**
 * Every command closes what it opened (a run: run/cleanup.ts), so the process ends by itself once
 * main returns. A backstop for a library's handle left open (a keep-alive socket): the verdict is
 * written, so the process exits a moment later whatever still holds it (named under BENCHRIG_DEBUG).
 */
function exitSoonAnyway(code: number, graceMs = 2_000): void {
  setTimeout(() => {
    if (process.env.BENCHRIG_DEBUG)
      process.stderr.write(
        `benchrig: exiting with handles still open: ${process.getActiveResourcesInfo().join(', ')}\n`,
      );
    process.exit(code);
  }, graceMs).unref();
}

/** Every error is one line on stderr; its exit code is exit-codes.ts's (2 for a user's, 3 for the sandbox engine's). */
export function exitCodeFor(err: unknown): number {
  if (err instanceof CommanderError) {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help')
      return 0;
    return EXIT.usage; // commander already printed its message
  }
  if (err instanceof BenchrigError) {
    process.stderr.write(`benchrig: ${err.message}${err.hint ? `\n  ${err.hint}` : ''}\n`);
  } else if (err instanceof SandboxError) {
    process.stderr.write(`benchrig: Docker failed: ${err.message}\n`);
  } else {
    process.stderr.write(`benchrig: internal error: ${describe(err)}\n`);
    if (process.env.BENCHRIG_DEBUG) process.stderr.write(`${(err as Error)?.stack ?? ''}\n`);
  }
  return errorExitCode(err);
}

export { Option };
