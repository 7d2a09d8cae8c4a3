// The agent seam (docs/agents.md). Agents are loaded inside the worker by name or path, never sent across.
import type { NewEvent, PublicSample, RetrievedContext, Sample } from '../types.ts';
import type { Sandbox } from '../sandbox/types.ts';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
  name?: string;
}

export interface ToolSpec {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export interface ChatRequest {
  messages: ChatMessage[];
  tools?: ToolSpec[];
  model?: string;
  temperature?: number;
  max_tokens?: number;
}

export interface ChatResponse {
  message: ChatMessage;
  usage: { input_tokens: number; output_tokens: number };
}

export interface LlmClient {
  chat(req: ChatRequest): Promise<ChatResponse>;
  readonly callsUsed: number;
  /** null: unlimited */
  readonly callsLeft: number | null;
}

/** A service beside the agent's sandbox: what `ctx.services.<name>` offers. */
export type ServiceHandle = Pick<Sandbox, 'id' | 'image' | 'workdir' | 'exec' | 'readFile' | 'writeFile'>;

export interface AgentContext {
  sessionId: string;
  /** No ground truth, except for the `oracle` agent which gets the full sample in `groundTruth`. */
  sample: PublicSample;
  sandbox?: Sandbox;
  /**
   * The environment's other services by name (docs/agents.md#services): exec, readFile and
   * writeFile, recorded and revoked with `sandbox`; absent when the trial has none.
   */
  services?: Readonly<Record<string, ServiceHandle>>;
  llm: LlmClient;
  options: Record<string, unknown>;
  signal: AbortSignal;
  record(event: NewEvent): void;
}

/** Only built-in agents that validate a benchmark see this (oracle). */
export interface TrustedAgentContext extends AgentContext {
  groundTruth: Sample;
  /** The benchmark folder: a solution's `files` folder is relative to it. */
  benchmarkDir: string;
}

export interface AgentReply {
  content: string;
  done?: boolean;
  blocked?: boolean;
  state?: Record<string, unknown>;
  /** What the agent retrieved for this reply, best first (docs/agents.md#retrieved-contexts). */
  contexts?: RetrievedContext[];
}

export interface Agent {
  /** A string is taken as `{ content }`; any other shape is an AGENT_ERROR (agents/contract.ts). */
  respond(message: string): Promise<AgentReply | string>;
  close?(): Promise<void>;
}

/** Makes the agent of one trial. Built-ins that see more than an AgentContext say so in src/agents/load.ts. */
export type AgentFactory<C extends AgentContext = AgentContext> = (ctx: C) => Agent | Promise<Agent>;
