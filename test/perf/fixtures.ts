// The perf suite's fixtures, generated into a temp folder: benchmarks of N samples and tiny module
// agents named by behaviour (one model call, four model calls, one `echo` in the sandbox).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const REPO = new URL('../../', import.meta.url).pathname;
const AGENT_TYPES = join(REPO, 'src/agents/types.ts');

/** An agent that makes `calls` model calls per trial, then replies with the last answer. */
function callingAgent(calls: number): string {
  return `import type { AgentContext } from ${JSON.stringify(AGENT_TYPES)};
export default function createAgent(ctx: AgentContext) {
  return {
    async respond(message: string) {
      let content = '';
      for (let i = 0; i < ${calls}; i++) {
        const r = await ctx.llm.chat({ messages: [{ role: 'user', content: message }] });
        content = r.message.content ?? '';
      }
      return { content, done: true };
    },
  };
}
`;
}

/** An agent that runs one \`echo\` in its sandbox and replies with the output. */
const ECHO_AGENT = `import type { AgentContext } from ${JSON.stringify(AGENT_TYPES)};
export default function createAgent(ctx: AgentContext) {
  return {
    async respond(message: string) {
      const r = await ctx.sandbox!.exec(['echo', message]);
      return { content: r.stdout.trim(), done: true };
    },
  };
}
`;

export interface Fixtures {
  root: string;
  agents: { oneCall: string; fourCalls: string; sandboxEcho: string };
  /** A benchmark folder of `n` samples, no sandbox, one `contains` check. */
  localBenchmark(n: number): string;
  /** A benchmark folder of `n` samples in the busybox sandbox, one `contains` check. */
  sandboxBenchmark(n: number): string;
}

export function createFixtures(root: string): Fixtures {
  const agents = join(root, 'agents');
  mkdirSync(agents, { recursive: true });
  // ES modules, as in the repository (without it a .ts file outside a package loads as CommonJS).
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
  const write = (name: string, text: string) => (writeFileSync(join(agents, name), text), join(agents, name));
  const made = new Map<string, string>();
  const benchmark = (kind: 'local' | 'sandbox', n: number) => {
    const key = `${kind}-${n}`;
    const existing = made.get(key);
    if (existing) return existing;
    const dir = join(root, 'benchmarks', `perf-${key}`);
    mkdirSync(dir, { recursive: true });
    const rows: string[] = [];
    for (let i = 0; i < n; i++)
      rows.push(
        JSON.stringify({
          id: `s${String(i).padStart(5, '0')}`,
          input: `ping ${i}`,
          expected: kind === 'local' ? 'pong' : `ping ${i}`,
        }),
      );
    writeFileSync(join(dir, 'data.jsonl'), rows.join('\n') + '\n');
    const sandbox =
      kind === 'sandbox'
        ? `[sandbox]\nimage = "benchrig/busybox:1"\nbuild = ${JSON.stringify(join(REPO, 'sandboxes/busybox'))}\nmemory = "64m"\npids = 32\n`
        : '';
    writeFileSync(
      join(dir, 'benchmark.toml'),
      `name = "perf-${key}"\n[dataset]\nsource = "data.jsonl"\n${sandbox}[limits]\ntrial_timeout_s = 120\n[[checks]]\ntype = "contains"\nname = "answered"\n`,
    );
    made.set(key, dir);
    return dir;
  };
  return {
    root,
    agents: {
      oneCall: write('one-call.ts', callingAgent(1)),
      fourCalls: write('four-calls.ts', callingAgent(4)),
      sandboxEcho: write('sandbox-echo.ts', ECHO_AGENT),
    },
    localBenchmark: (n) => benchmark('local', n),
    sandboxBenchmark: (n) => benchmark('sandbox', n),
  };
}
