// The agent contract (docs/agents.md#writing-an-agent) as a user meets it through the CLI: a factory
// whose agent has no respond, that returns nothing or that throws is refused before anything runs
// (exit 2, one line naming the module and the contract); a respond() that returns a string is taken
// as {content}; any other shape is an AGENT_ERROR that names what respond must return — the same in
// every mode and with a sandbox (issue #23).
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, onlyRunDir, results, runCli, tempDir } from '../support/cli.ts';
import { defined } from '../support/defined.ts';
import type { TrialResult } from '../../src/types.ts';

const agent = (name: string) => join(FIXTURES, 'agents', `${name}.ts`);
const SHAPES = join(FIXTURES, 'benchmarks/reply-shapes');
const ECHO = join(FIXTURES, 'benchmarks/echo-local');
const CONTRACT =
  /it must return a string or \{ content: string, done\?: boolean, blocked\?: boolean, state\?: object, contexts\?: \[\{ id\?, text, score\? \}\] \}/;
// What the user must never read instead of the contract: benchrig's own names and JavaScript's.
const INTERNAL = /is not a function|Cannot read properties|c\.agent|reply\?\.|undefined \(reading/;

/** reply-shapes with a [sandbox]: the agents run `pwd` there before they reply. */
function sandboxedShapes(): string {
  const dir = join(tempDir(), 'reply-shapes');
  cpSync(SHAPES, dir, { recursive: true });
  const toml = readFileSync(join(dir, 'benchmark.toml'), 'utf8');
  writeFileSync(join(dir, 'benchmark.toml'), `${toml}[sandbox]\nimage = "benchrig/busybox:1"\n`);
  return dir;
}

async function run(bench: string, agentName: string, mode: string, extra: string[] = []) {
  const out = tempDir();
  const r = await runCli(['run', bench, '--agent', agent(agentName), '--mode', mode, '--output', out, ...extra]);
  return { r, out, res: () => results(onlyRunDir(out, agentName, bench.split('/').at(-1) ?? '')) };
}

const byId = (res: TrialResult[]) => Object.fromEntries(res.map((x) => [x.sample_id, x]));

describe('a factory that makes no agent is refused before anything runs', () => {
  async function refused(agentName: string, pattern: RegExp, bench = ECHO, extraEnv: Record<string, string> = {}) {
    const out = tempDir();
    const r = await runCli(['run', bench, '--agent', agent(agentName), '--mode', 'processes', '--output', out], {
      env: extraEnv,
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(pattern);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(readdirSync(out)).toEqual([]);
  }

  it('an agent without respond names the module, what it has, and the contract', async () => {
    await refused(
      'no-respond',
      /^benchrig: agent module test\/fixtures\/agents\/no-respond\.ts is not an agent: its factory returned an object with no respond \(it has reply\); the factory must return \{ respond\(message\), close\?\(\) \} \(docs\/agents\.md#writing-an-agent\)$/m,
    );
  });

  it('a factory that returns nothing says so', async () => {
    await refused(
      'no-return',
      /agent module test\/fixtures\/agents\/no-return\.ts is not an agent: its factory returned undefined; the factory must return \{ respond/,
    );
  });

  it('a factory that throws names its file:line and its message, before Docker is asked', async () => {
    // Nothing listens there: a run that reached Docker would end with exit 3, not 2.
    await refused(
      'factory-throws',
      /agent module test\/fixtures\/agents\/factory-throws\.ts cannot be used: its factory threw at the load check: test\/fixtures\/agents\/factory-throws\.ts:6:\d+: factory-throws: set --agent-opt persona=NAME/,
      join(FIXTURES, 'benchmarks/mini-shell'),
      { DOCKER_HOST: `unix://${join(tempDir(), 'no-docker.sock')}` },
    );
  });

  it('a factory that makes its agent for some samples only: those trials are AGENT_ERROR naming the contract', async () => {
    const { r, res } = await run(ECHO, 'no-respond-sometimes', 'threads');
    const got = byId(res());
    expect(got.c.status, r.stderr).toBe('AGENT_ERROR');
    expect(defined(got.c.error).message).toBe(
      "the agent's factory returned an object with no respond (it has close); the factory must return { respond(message), close?() } (docs/agents.md#writing-an-agent)",
    );
    expect(got.a.status).toBe('PASSED');
  });
});

describe('a factory that uses its sandbox is not refused by the load check', () => {
  it('runs and passes', async () => {
    const { r, res } = await run(join(FIXTURES, 'benchmarks/mini-shell'), 'factory-uses-sandbox', 'single', [
      '--sample',
      'greet',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(res().map((x) => [x.status, x.response])).toEqual([['PASSED', 'ran it in /workspace']]);
  });
});

// The sandboxed case needs Docker, and fails without it (never skipped).
describe.each([
  ['single', SHAPES],
  ['threads', SHAPES],
  ['processes', SHAPES],
  ['processes with a sandbox', ''],
])('reply shapes (%s)', (label, bench) => {
  const mode = label.split(' ')[0];
  const where = () => bench || sandboxedShapes();

  it('a string reply is the content: every trial passes on it', async () => {
    const { r, res } = await run(where(), 'string-reply', mode);
    expect(r.code, r.stderr).toBe(0);
    for (const x of res()) {
      expect([x.sample_id, x.status, x.response]).toEqual([x.sample_id, 'PASSED', 'apple']);
      expect(x.events.filter((e) => e.type === 'agent_message').map((e) => e.content)).toEqual(['apple']);
    }
  });

  it('any other shape is an AGENT_ERROR naming what respond must return', async () => {
    const { r, res } = await run(where(), 'bad-reply', mode);
    const got = byId(res());
    const said = (id: string) => {
      expect(got[id].status, r.stderr).toBe('AGENT_ERROR');
      const { kind, message } = defined(got[id].error);
      expect(kind).toBe('agent');
      expect(message).toMatch(CONTRACT);
      expect(message).not.toMatch(INTERNAL);
      return message.split(';')[0];
    };
    expect(Object.keys(got).sort()).toEqual(['array', 'content-number', 'done-string', 'no-content', 'null', 'number']);
    expect(said('number')).toBe('respond() returned a number (42)');
    expect(said('array')).toBe('respond() returned an array');
    expect(said('null')).toBe('respond() returned null');
    expect(said('no-content')).toBe('respond() returned an object without content (it has text, done)');
    expect(said('content-number')).toBe('respond() returned content that is a number');
    expect(said('done-string')).toBe('respond() returned done that is a string');
    expect(r.stdout).toMatch(/AGENT_ERROR\s+agent: respond\(\) returned a number \(42\); it must return a string/);
  });
});
