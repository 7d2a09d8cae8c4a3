// The installed-agent seam (docs/agents.md#installed-agents): everything benchrig needs to know of a CLI agent that runs
// inside the sandbox — what to install on the host, how to run one instruction headless, the
// environment and config files that point it at the model gateway, and what to collect afterwards.
import type { Protocol } from '../../gateway/types.ts';

/** What a preset's functions get: where the gateway is, from inside the sandbox. */
export interface GatewayView {
  /** `http://127.0.0.1:18080` (no /v1): the in-sandbox forwarder to the gateway. */
  baseUrl: string;
  /** The trial's token: the agent's API key. Never the upstream key. */
  token: string;
  /** The model the run evaluates (the gateway asks the upstream for it whatever the CLI says). */
  model: string;
  /** The agent's home folder in the sandbox. */
  home: string;
  /** True when the agent runs as root (some CLIs need a switch for that). */
  root: boolean;
}

export interface InstalledAgentSpec {
  /** The preset's name: `claude-code`. */
  name: string;
  /** The npm package and its exact version, installed once on the host into benchrig's cache. */
  package: { name: string; version: string };
  /** The wire API it speaks to the gateway. */
  api: Protocol;
  /** Its binaries link against glibc (every preset does: busybox images are refused). */
  needsGlibc: boolean;
  /** Runs as an unprivileged user (uid 1000) unless false. */
  unprivileged: boolean;
  /** Continues its own session on later turns; false: the run refuses max_turns > 1 with a user. */
  multiTurn: boolean;
  /** argv for one instruction; `turn` > 1 continues the session (only when multiTurn). */
  command: (prompt: string, turn: number, gw: GatewayView) => string[];
  /** Environment variables of the command (the base URL and token among them). */
  env: (gw: GatewayView) => Record<string, string>;
  /** Files written before the first turn (paths absolute or relative to the home folder). */
  files?: (gw: GatewayView) => Record<string, string>;
  /** Run-to-run text in its prompts (process ids…) that `--llm-cache` must ignore; global regexes. */
  volatile?: RegExp[];
  /** Folders or files (relative to the home folder) copied out after the trial, as artifacts. */
  collect: string[];
}
