// The sandbox of an installed agent (docs/agents.md#installed-agents): no network at all (`--network none`), the agent's
// runtime from the host cache read-only, and the folder holding the gateway's unix sockets, also
// read-only (connecting to a socket needs no write access to its mount). A forwarder inside the
// sandbox turns 127.0.0.1:18080 into that socket, so the gateway is the only thing it can reach.
import type { SandboxSpec } from '../../sandbox/types.ts';

export const MOUNT = {
  node: '/opt/benchrig/node',
  agent: '/opt/benchrig/agent',
  gateway: '/run/benchrig-gateway',
} as const;

/** What the main process prepared for an installed agent; plain data (crosses workers). */
export interface InstalledRun {
  /** The agent's name as given (`cli:codex`, or `cli` with options). */
  name: string;
  /** Host folders: the cached npm installs and the gateway's socket folder. */
  nodeDir: string;
  agentDir: string;
  socketDir: string;
}

export function confineSandbox(spec: SandboxSpec, installed: InstalledRun): SandboxSpec {
  return {
    ...spec,
    network: 'none',
    mounts: [
      { source: installed.nodeDir, target: MOUNT.node, readOnly: true },
      { source: installed.agentDir, target: MOUNT.agent, readOnly: true },
      { source: installed.socketDir, target: MOUNT.gateway, readOnly: true },
    ],
  };
}
