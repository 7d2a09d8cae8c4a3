// Shared by the installed-agent e2e files (one per preset, `npm run test:agents`): a scripted model
// on loopback, a second HTTP server the sandbox must not reach, the config, and the three runs every
// preset goes through (record, replay with no upstream, budget).
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { FIXTURES, readJson, runCli, tempDir } from '../../support/cli.ts';
import { startUpstreamServer, type UpstreamServer } from '../../support/upstream-server.ts';
import { shellAgentScript } from '../../support/agent-script.ts';
import { defined } from '../../support/defined.ts';
import type { TrialResult } from '../../../src/types.ts';

export const KEY = 'sk-upstream-SECRET-71c0d2e9a4';
export const BENCH = join(FIXTURES, 'benchmarks/agents-debian');
export const modelCalls = (u: UpstreamServer) => u.requests.filter((r) => r.api !== 'count_tokens');

/** The docker0 address: how a container on the default bridge would reach the host. */
export function bridgeGateway(): string {
  const out = execFileSync('docker', [
    'network',
    'inspect',
    'bridge',
    '-f',
    '{{range .IPAM.Config}}{{.Gateway}}{{end}}',
  ])
    .toString()
    .trim();
  return out || '172.17.0.1';
}

/** A host server on every address: whatever reaches it is logged. */
export async function startDecoy(): Promise<{ port: number; hits: number; close(): Promise<void> }> {
  const state = { hits: 0 };
  const server: Server = createServer((_q, res) => (state.hits++, res.end('decoy')));
  await new Promise<void>((r) => server.listen(0, '0.0.0.0', r));
  return {
    port: (server.address() as AddressInfo).port,
    get hits() {
      return state.hits;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * The shell command the model asks for: it solves the task, then reports, as the agent's own tool
 * output (which the scripted model receives in the next request), whether the upstream key is in the
 * agent's environment, the container's (PID 1) or any file, and what the network reaches from
 * inside: the gateway's forwarder, the host's decoy on the bridge address and on loopback, the
 * internet by name and by address. The key is assembled at run time, so the command never holds it.
 */
export function taskCommand(decoyPort: number): string {
  const targets = [
    `http://127.0.0.1:18080/`,
    `http://${bridgeGateway()}:${decoyPort}/`,
    `http://127.0.0.1:${decoyPort}/`,
    'http://example.com/',
    'http://1.1.1.1/',
  ];
  const probe = `const t=${JSON.stringify(targets)};Promise.all(t.map(u=>fetch(u,{signal:AbortSignal.timeout(3000)}).then(r=>u+' REACHED '+r.status,e=>u+' BLOCKED'))).then(l=>console.log(l.join('\\n')))`;
  const [head, tail] = [KEY.slice(0, 12), KEY.slice(12)];
  return [
    'echo 42 > answer.txt',
    `k="$(printf '%s%s' '${head}' '${tail}')"`,
    'echo "agent-env-key: $(env | grep -cF "$k")"',
    'echo "agent-key-is-token: $(env | grep -c "=brg-")"',
    // `{ …; } 2>/dev/null`: the shell's own "cannot open /proc/<pid>/environ" would put pids, which
    // differ from run to run, into the tool output and so into the next request (a replay miss)
    `echo "process-env-key: $(for f in /proc/[0-9]*/environ; do { tr '\\0' '\\n' < $f; } 2>/dev/null; done | grep -cF "$k")"`,
    'echo "files-with-key: $(grep -rlsF "$k" / --exclude-dir=proc --exclude-dir=sys --exclude-dir=dev --exclude-dir=benchrig | wc -l)"',
    `/opt/benchrig/node/bin/node -e "${probe.replaceAll('"', '\\"')}"`,
  ].join('; ');
}

/** The tool output the CLI sent back to the model (the second model request of the run). */
export function toolOutput(u: UpstreamServer): string {
  const req = u.requests
    .filter((r) => r.api !== 'count_tokens')
    .find((r) => JSON.stringify(r.body).includes('agent-env-key'));
  return req ? JSON.stringify(req.body) : '';
}

/** `chatOnly`: only `[llm]`, so the gateway translates the Responses and Messages APIs to Chat Completions. */
export function writeConfig(dir: string, upstreamUrl: string, o: { chatOnly?: boolean } = {}): string {
  const file = join(dir, 'agents.toml');
  const others = o.chatOnly ? '' : '[llm.responses]\n[llm.anthropic]\n';
  writeFileSync(
    file,
    `[llm]\nbase_url = "${upstreamUrl}"\napi_key = "\${AGENTS_TEST_KEY}"\nmodel = "upstream-model"\nmax_retries = 0\ntimeout_s = 30\n${others}`,
  );
  return file;
}

export interface PresetRun {
  code: number;
  stderr: string;
  dir: string;
  result: TrialResult;
}

export async function runPreset(
  preset: string,
  o: { out: string; config: string; extra?: string[]; bench?: string },
): Promise<PresetRun> {
  const bench = o.bench ?? BENCH;
  const r = await runCli(
    [
      'run',
      bench,
      '--agent',
      `cli:${preset}`,
      '--mode',
      'single',
      '--output',
      o.out,
      '--config',
      o.config,
      '--quiet',
      ...(o.extra ?? []),
    ],
    {
      env: { AGENTS_TEST_KEY: KEY },
      timeoutMs: 300_000,
    },
  );
  const dir = join(o.out, `cli_${preset}`, basename(bench));
  let result: TrialResult;
  try {
    // the newest run under the output folder (a replay shares its folder, and cache, with the recording)
    const runs = readdirSync(dir)
      .map((n) => join(dir, n))
      .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
    const runDir = defined(runs.at(-1), 'run folder');
    result = readJson<TrialResult>(join(runDir, 'results', readdirOne(join(runDir, 'results'))));
    return { code: r.code, stderr: r.stderr, dir: runDir, result };
  } catch (err) {
    throw new Error(
      `run of cli:${preset} left no result (exit ${r.code}): ${r.stderr.slice(-2000)} ${(err as Error).message} ${dir}`,
    );
  }
}

function readdirOne(dir: string): string {
  const names = execFileSync('ls', [dir])
    .toString()
    .trim()
    .split('\n')
    .filter((n) => n.endsWith('.json'));
  if (names.length !== 1) throw new Error(`expected one result in ${dir}: ${names.join(', ')}`);
  return names[0];
}

export const docker = (...args: string[]) => execFileSync('docker', args, { maxBuffer: 64 * 1024 * 1024 }).toString();

export { readFileSync, startUpstreamServer, shellAgentScript, tempDir };
