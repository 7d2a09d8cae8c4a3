// `benchrig run`: flags → a run; the exit code is the gate's (docs/cli.md).
import type { Command } from 'commander';
import { Option } from 'commander';
import { createRunConsole } from '../run/console.ts';
import { runBenchmark } from '../run/orchestrator.ts';
import { installInterruptHandlers } from '../run/cancel.ts';
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadJobFile, validateJob, type JobSpec } from '../job/file.ts';
import { JOB_FILE, readJobJson } from '../job/job-json.ts';
import { runJob } from '../run/job.ts';
import { flagsToConfig, int, parseAgentOpts, runText, type RunFlags } from './flags.ts';
import { DEFAULT_AGENT } from '../config/schema.ts';
import { BenchrigError } from '../errors.ts';
import { providerHelp, providerNames, runFlags, runFlagValues } from '../sandbox/index.ts';
import { commanderOption } from './provider-flags.ts';
import { withInterrupt } from '../exit-codes.ts';

const collect = (v: string, acc: string[] = []) => [...acc, v];
const collectList = (v: string, acc: string[] = []) => [
  ...acc,
  ...v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
];

interface RunCommandOptions extends Omit<RunFlags, 'agent' | 'model'> {
  agent?: string[];
  model?: string[];
  gateAny?: boolean;
  sample?: string[];
  limit?: string;
  shuffle?: boolean;
  seed?: string;
  config?: string;
  verbose?: boolean;
  quiet?: boolean;
  progress?: boolean;
  resume?: string;
  baseline?: string;
  trace?: 'console' | 'otlp' | 'off';
  label?: string;
  note?: string;
}

// eslint-disable-next-line max-lines-per-function -- commander's declaration of `run`, one flag per line: the whole flag list reads in one place
export function registerRun(program: Command): void {
  const run = program
    .command('run')
    .description('run a benchmark; writes a run folder; the exit code is the gate')
    .argument(
      '[benchmark...]',
      'a benchmark folder, a name under ./benchmarks or a registry dataset NAME[@VERSION] (docs/benchmarks.md#registries); several, or a job file (job.toml), make a job',
    )
    .option('--registry <url|file>', 'the registry of datasets (over BENCHRIG_REGISTRY and [registry] url)')
    .option(
      '--agent <name|path>',
      'built-in agent (oracle, nop, react, …) or a module path (repeatable: a job of every agent)',
      collect,
    )
    .option('--agent-opt <k=v>', 'agent option (repeatable)', collect)
    .option('--agent-id <id>', 'names the run folder evals/<agent-id>/…')
    .option('--label <text>', 'names this run in compare, history, view and the report (one line, ≤ 80 characters)')
    .option('--note <text>', 'a note kept with the run (run.json) and shown with it (≤ 2000 characters)')
    .addOption(new Option('--mode <mode>', 'where samples execute').choices(['single', 'threads', 'processes']))
    .option('--workers <n>', 'threads or processes in the pool')
    .option('--per-worker <n>', 'samples in flight inside one worker')
    .option('--max-sandboxes <n>', 'live sandboxes at once, across all workers')
    .option('--trials <k>', 'trials per sample')
    .option('--sample <id>', 'run only these samples (repeatable, or a comma list)', collectList)
    .option('--limit <n>', 'the first N samples (after --shuffle)')
    .option('--shuffle', 'shuffle the samples (reproducible with --seed)')
    .option('--seed <s>', 'seed for --shuffle')
    .option('--model <name>', "the agent's model (over BENCHRIG_MODEL and [llm] model; repeatable: a job)", collect)
    .option('--gate-any', 'a job passes when at least one cell passes its gate')
    .option('--max-llm-calls <n>', "the agent's LLM-call budget per trial")
    .option('--max-turns <n>', 'user turns per trial')
    .option('--trial-timeout <s>', 'seconds per trial (after the sandbox is ready)')
    .option('--output <dir>', 'root of run folders')
    .option('--config <file>', 'an extra TOML layer')
    .option('--resume <run-dir>', 'finish an interrupted run: keep every saved trial, run only the missing ones')
    .option(
      '--baseline <run-dir|auto>',
      'add a comparison with that run to the report (auto: the latest earlier run of this agent and benchmark that graded something)',
    )
    .option('--keep-sandbox', 'leave the sandbox running after the trial and print how to enter it')
    .option(
      '--pull',
      "pull any image the run needs that is not on this machine (the benchmark's, a row's, a service's) from its registry",
    )
    .addOption(
      new Option('--network <mode>', "none: every sandbox without network, whatever a task's own setting").choices([
        'none',
      ]),
    )
    .addOption(new Option('--provider <name>', providerHelp()).choices(providerNames()));
  // Each sandbox provider's own flags (sandbox/registry.ts), e.g. the hosts it runs on.
  for (const f of runFlags()) run.addOption(commanderOption(f));
  run
    .addOption(new Option('--llm-cache <mode>', 'record or replay LLM responses').choices(['off', 'record', 'replay']))
    .option(
      '--no-transcripts',
      'keep only each model call\'s metadata, not its messages ([run] transcripts = "metadata")',
    )
    .addOption(
      new Option(
        '--trace <exporter>',
        'spans: console (stderr), otlp (to OTEL_EXPORTER_OTLP_ENDPOINT) or off (no telemetry, Langfuse included)',
      ).choices(['console', 'otlp', 'off']),
    )
    .option('--verbose', 'stream every trial event')
    .option('--quiet', 'print nothing but the summary')
    .addOption(new Option('--log-level <level>').choices(['debug', 'info', 'warn', 'error']))
    .option('--no-progress', 'no progress display: a line for every trial instead')
    .action(async (benchmarks: string[], o: RunCommandOptions) => {
      const job = jobOf(benchmarks, o, process.cwd());
      if (job) return runJobCommand(job, o);
      const benchmark = benchmarks[0];
      if (!benchmark) throw new BenchrigError('usage', 'run needs a benchmark (or --resume JOB_DIR)');
      const { flags, providerFlags } = flagsOf({ ...o, agent: o.agent?.[0], model: o.model?.[0] });
      const label = runText('label', o.label);
      const note = runText('note', o.note);
      // Debugging one sample: without an explicit --mode it runs in the main thread.
      if (o.sample?.length && !o.mode) flags.run = { ...(flags.run as object), mode: 'single' };
      await interruptible(async (signal) => {
        const outcome = await runBenchmark({
          benchmark,
          cwd: process.cwd(),
          configFile: o.config,
          env: process.env,
          flags,
          sample: o.sample,
          limit: int('limit', o.limit, 1),
          shuffle: o.shuffle,
          seed: o.seed,
          signal,
          resume: o.resume,
          baseline: o.baseline,
          providerFlags,
          trace: o.trace,
          label,
          note,
          console: consoleOf(o),
        });
        return outcome.exitCode;
      });
    });
}

/**
 * Runs a run or a job under Ctrl-C's handlers (run/cancel.ts) and sets the exit code: the run's, or
 * 130 for one interrupted (129 when it was the terminal's hang-up), also one interrupted before its
 * folder existed (an image build: then there is no report).
 */
async function interruptible(body: (signal: AbortSignal) => Promise<number>): Promise<void> {
  const interrupt = installInterruptHandlers((line) => process.stderr.write(line + '\n'));
  try {
    const code = await body(interrupt.signal);
    process.exitCode = withInterrupt(code, () => interrupt.exitCode());
  } catch (err) {
    if (!(err instanceof BenchrigError && err.kind === 'interrupted')) throw err;
    process.stderr.write(`benchrig: ${err.message}\n`);
    process.exitCode = interrupt.exitCode();
  } finally {
    interrupt.dispose();
  }
}

/** The flags' configuration layer, the providers' flags that are keys merged in, and the values of their others. */
function flagsOf(o: RunFlags & Record<string, unknown>): {
  flags: Record<string, unknown>;
  providerFlags: Record<string, unknown>;
} {
  const flags = flagsToConfig(o);
  const { layer, flags: providerFlags } = runFlagValues(o);
  for (const [table, keys] of Object.entries(layer))
    flags[table] = { ...(flags[table] as Record<string, unknown> | undefined), ...keys };
  return { flags, providerFlags };
}

function consoleOf(o: RunCommandOptions) {
  return createRunConsole({
    verbose: !!o.verbose,
    level: o.logLevel as 'debug' | 'info' | 'warn' | 'error' | undefined,
    quiet: !!o.quiet,
    color: !!process.stderr.isTTY && !process.env.NO_COLOR,
    progress: o.progress !== false,
    tty: !!process.stderr.isTTY,
  });
}

/** The job these arguments ask for (a job file, several benchmarks, agents or models, or --resume of a job), or null: a plain run. */
function jobOf(benchmarks: string[], o: RunCommandOptions, cwd: string): JobSpec | { resume: string } | null {
  if (o.resume && existsSync(join(resolve(cwd, o.resume), JOB_FILE))) return { resume: o.resume };
  const [first] = benchmarks;
  if (benchmarks.length === 1 && first.endsWith('.toml')) {
    const path = resolve(cwd, first);
    if (!existsSync(path) || statSync(path).isDirectory())
      throw new BenchrigError('usage', `${first}: no such job file`);
    return loadJobFile(path);
  }
  if (benchmarks.length === 1 && (o.agent?.length ?? 0) <= 1 && (o.model?.length ?? 0) <= 1) return null;
  const options = o.agentOpt?.length ? parseAgentOpts(o.agentOpt) : undefined;
  const agents = (o.agent?.length ? o.agent : [DEFAULT_AGENT]).map((name) => ({
    name,
    ...(options ? { options } : {}),
    ...(o.agentId && o.agent?.length === 1 ? { id: o.agentId } : {}),
  }));
  const models = o.model?.length ? o.model.map((name) => ({ name })) : [];
  return validateJob({ benchmarks, agents, models }, 'the command line');
}

async function runJobCommand(job: JobSpec | { resume: string }, o: RunCommandOptions): Promise<void> {
  // The job's own flags: everything but what makes a cell (its agent and model).
  const { flags, providerFlags } = flagsOf({
    ...o,
    agent: undefined,
    agentOpt: undefined,
    agentId: undefined,
    model: undefined,
  });
  await interruptible(async (signal) => {
    const resume = 'resume' in job ? job.resume : undefined;
    const outcome = await runJob({
      job: 'resume' in job ? readJobJson(resolve(process.cwd(), job.resume)).spec : job,
      ...(resume ? { resume } : {}),
      ...(o.gateAny ? { gateAny: true } : {}),
      cwd: process.cwd(),
      configFile: o.config,
      env: process.env,
      flags,
      sample: o.sample,
      limit: int('limit', o.limit, 1),
      shuffle: o.shuffle,
      seed: o.seed,
      signal,
      providerFlags,
      trace: o.trace,
      console: consoleOf(o),
    });
    return outcome.exitCode;
  });
}
