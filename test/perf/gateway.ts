// `gateway_overhead_ms`: what the model gateway adds to one model call, streamed and not, with N
// trials calling at once — the same loopback model called directly, then through the gateway,
// alternated, from the same client process (gateway-child.ts). The gateway runs here, in the
// suite's process, as it runs in the harness's main process during a run.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compiledUrl } from '../../src/loader/compile.mjs';
import { createModelGateway } from '../../src/gateway/server.ts';
import type { Job } from './gateway-child.ts';
import { defined } from '../support/defined.ts';

export interface GatewaySizes {
  /** Concurrent trials, one call in flight each. */
  trials: number;
  /** Sequential calls per trial per rep. */
  calls: number;
  reps: number;
  /** The model's own latency: without one the loop measures saturation, not per-call cost. */
  latencyMs: number;
  /** Request body size: CLIs send 40–80 KB (tool lists and system prompts). */
  bodyKb: number;
}

export interface GatewayOverhead {
  /** The larger of the two modes' overheads, ms per call. */
  value: number;
  raw: Record<string, unknown>;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const r2 = (x: number) => Math.round(x * 100) / 100;

/** A Chat Completions request of about `kb` KB, shaped like a CLI's: a system prompt and tool schemas. */
export function cliSizedBody(kb: number): string {
  const tools = [];
  for (let i = 0; JSON.stringify(tools).length < kb * 1024 - 600; i++)
    tools.push({
      type: 'function',
      function: {
        name: `tool_${i}`,
        description: 'Runs a thing in the workspace. '.repeat(12),
        parameters: {
          type: 'object',
          properties: { command: { type: 'string', description: 'the command' } },
          required: ['command'],
        },
      },
    });
  return JSON.stringify({
    model: 'perf-model',
    messages: [
      { role: 'system', content: 'You are a coding agent. '.repeat(20) },
      { role: 'user', content: 'ping' },
    ],
    tools,
  });
}

export async function measureGatewayOverhead(
  z: GatewaySizes,
  say: (line: string) => void = () => {},
): Promise<GatewayOverhead> {
  const script = fileURLToPath(await compiledUrl(new URL('./gateway-child.ts', import.meta.url)));
  const child = fork(script, [String(z.latencyMs)], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let gw: ReturnType<typeof createModelGateway> | null = null;
  try {
    const modelOrigin = await next<{ ready: string }>(child).then((m) => m.ready);
    gw = createModelGateway({
      upstreams: {
        chat: {
          protocol: 'chat',
          baseUrl: `${modelOrigin}/v1`,
          apiKey: 'sk-perf',
          model: 'perf-model',
          timeoutMs: 30_000,
          maxRetries: 0,
        },
      },
    });
    const { baseUrl } = await gw.start();
    const regs = Array.from({ length: z.trials }, (_, i) =>
      defined(gw).register({ id: `perf#${i}`, budget: null, onEvent: () => {} }),
    );
    const body = cliSizedBody(z.bodyKb);
    const job = (target: string, tokens: string[], stream: boolean, calls = z.calls): Job => ({
      target,
      tokens,
      calls,
      stream,
      body,
    });
    const direct = Array(z.trials).fill('sk-direct');
    const viaGw = regs.map((r) => r.token);

    const modes: Record<string, unknown> = {};
    const overheads: number[] = [];
    for (const stream of [false, true]) {
      // Warm-up: sockets, JIT on both sides.
      await ask(child, job(modelOrigin, direct, stream, 2));
      await ask(child, job(baseUrl, viaGw, stream, 2));
      const diffs: number[] = [];
      const directMs: number[] = [];
      const gatewayMs: number[] = [];
      let cpuUs = 0;
      for (let i = 0; i < z.reps; i++) {
        const d = median(await ask(child, job(modelOrigin, direct, stream)));
        const cpu0 = process.cpuUsage();
        const g = median(await ask(child, job(baseUrl, viaGw, stream)));
        const cpu = process.cpuUsage(cpu0);
        cpuUs += cpu.user + cpu.system;
        directMs.push(r2(d));
        gatewayMs.push(r2(g));
        diffs.push(g - d);
      }
      const overhead = median(diffs);
      overheads.push(overhead);
      const name = stream ? 'stream' : 'whole';
      // Steadier than latency on a shared machine: what one call costs the gateway's process.
      const cpuMsPerCall = cpuUs / 1000 / (z.reps * z.trials * z.calls);
      modes[name] = {
        overhead_ms: r2(overhead),
        direct_median_ms: directMs,
        gateway_median_ms: gatewayMs,
        gateway_cpu_ms_per_call: r2(cpuMsPerCall),
      };
      say(
        `  gateway ${name}: direct ${directMs.join(', ')} ms, through the gateway ${gatewayMs.join(', ')} ms per call; gateway CPU ${cpuMsPerCall.toFixed(2)} ms a call`,
      );
    }
    const calls = regs.reduce((n, r) => n + r.usage.calls, 0);
    return {
      value: Math.max(...overheads),
      raw: {
        trials: z.trials,
        calls_per_trial: z.calls,
        reps: z.reps,
        model_latency_ms: z.latencyMs,
        body_kb: z.bodyKb,
        calls_through_gateway: calls,
        modes,
        measured:
          'median per-call latency through the gateway minus direct, same client process and model, alternated per rep; value = the larger of whole and stream',
      },
    };
  } finally {
    await gw?.close();
    const exited = new Promise<void>((resolve) =>
      child.exitCode !== null ? resolve() : child.once('exit', () => resolve()),
    );
    if (child.connected) child.send({ exit: true });
    else child.kill();
    await exited;
  }
}

function next<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`gateway perf child exited (${code})`));
    child.once('exit', onExit);
    child.once('message', (m: T & { error?: string }) => {
      child.off('exit', onExit);
      if (m?.error) reject(new Error(`gateway perf child: ${m.error}`));
      else resolve(m);
    });
  });
}

async function ask(child: ChildProcess, job: Job): Promise<number[]> {
  const reply = next<{ done: number[] }>(child);
  child.send({ run: job });
  return (await reply).done;
}
