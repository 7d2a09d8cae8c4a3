// What a provider brings to benchrig besides its EnvironmentProvider (provider.ts): its settings made
// from the run's keys, flags and environment (refused with the key's name, exit 2), the flags it adds
// to `run` and `sandbox cleanup`, its check that the engine answers, its cleanup and its docs page.
// Each provider folder defines one (sandbox/<provider>/definition.ts); sandbox/registry.ts lists them.
// Nothing here loads an engine's client: a definition imports its provider's code when it is used.
import type { EnvironmentProvider } from './provider.ts';

/** A flag a provider adds to a command, as commander declares it. */
export interface ProviderFlag {
  /** Commander's flags, e.g. `--docker-host <url=capacity>`; its value is read back by `key`. */
  flags: string;
  /** Commander's attribute name for it (camelCase of the long flag), e.g. `dockerHost`. */
  key: string;
  description: string;
  /** Given several times: its values in order. */
  repeatable?: boolean;
  /** A `run` flag that is a configuration key: the layer it sets (e.g. `--push` → `[run] push`). */
  config?: (value: unknown) => Record<string, unknown>;
}

/** What a provider's settings are made of: the run's resolved keys, its own flags, the environment. */
export interface ProviderInput {
  /** The run's `[run]` table (its `provider` key names the provider chosen). */
  run: { provider: string } & Record<string, unknown>;
  /** The run's `[sandbox]` table (its paths absolute: loadBenchmark resolved them). */
  sandbox: Record<string, unknown>;
  /** The values of the providers' `run` flags that are not configuration keys, by `ProviderFlag.key`. */
  flags: Record<string, unknown>;
  env: NodeJS.ProcessEnv;
  /** The benchmark's folder: relative paths of the run's keys resolve against it. */
  benchmarkDir: string;
  /** `[limits] trial_timeout_s`: a provider's own backstops are derived from it. */
  trialTimeoutS: number;
}

/** Where the run's `[sandbox]` keys came from, for a definition's checks at load. */
export interface KeySources {
  /** Who set `[sandbox] <key…>`: a file as messages show it, or "environment X" / "flag --x". */
  setBy(...key: Array<string | number>): string;
  /** The working directory: a path set by the environment or a flag is relative to it. */
  cwd: string;
  /** A path as messages show it (relative to the working directory when under it). */
  shown(path: string): string;
}

/** Which sandboxes `sandbox cleanup` removes (docs/cli.md#sandbox-cleanup). */
export interface CleanupWhich {
  all?: boolean;
  kept?: boolean;
  runId?: string;
}

/** What `sandbox cleanup --provider NAME` hands its provider. */
export interface CleanupRequest {
  which: CleanupWhich;
  /** The values of the provider's cleanup flags, by `ProviderFlag.key`. */
  flags: Record<string, unknown>;
  /** `--config FILE`: the file as read (TOML, `${VAR}` expanded), its absolute path and its path as messages show it; absent without --config. */
  config?: { file: string; shown: string; raw: Record<string, unknown> };
  env: NodeJS.ProcessEnv;
  print: (line: string) => void;
}

export interface ProviderDefinition<S = unknown> {
  /** Its name: the spec's `provider.kind` (sandbox/types.ts ProviderChoice). */
  readonly name: string;
  /** The `[run] provider` / `--provider` value that chooses it (several may share one: the first whose settings apply wins). */
  readonly chosenBy: string;
  /** How `run --provider`'s help names it, e.g. `kubernetes ([run] namespace, registry)`; absent: not named there itself. */
  readonly help?: string;
  /** Its page of docs/ (docs/sandboxes.md#providers lists them). */
  readonly docs: string;
  /** Flags it adds to `benchrig run`. */
  readonly runFlags: readonly ProviderFlag[];
  /**
   * Its settings when the input chooses it (null: it does not apply, the next definition chosen by the
   * same name is asked); throws a BenchrigError (exit 2) naming the key or flag that does not fit.
   * The result is plain JSON: it crosses to workers inside the SandboxSpec.
   */
  settings(input: ProviderInput): S | null;
  /**
   * At load, the `[sandbox]` keys it reads: checked (e.g. `subnet_pool`'s range) and their paths made
   * absolute (e.g. a host's TLS files, relative to the file that set them); returns the keys it
   * changed. Refusals name the file and the key (exit 2).
   */
  sandboxKeys?(sandbox: Record<string, unknown>, at: KeySources): Record<string, unknown> | void;
  /** Its provider for these settings (loads its engine's client). */
  make(settings: S): Promise<EnvironmentProvider>;
  /** Why an installed agent (`cli:`, which reaches the model gateway through a unix socket on this machine) cannot run on it, or null. */
  installedAgents(settings: S): string | null;
  /** `sandbox cleanup --provider NAME`: its flags, and the sweep (its engine checked first); absent: not a `--provider` value of cleanup. */
  readonly cleanup?: {
    readonly flags: readonly ProviderFlag[];
    run(req: CleanupRequest): Promise<void>;
  };
}
