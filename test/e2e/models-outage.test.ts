// A model endpoint that fails is the infrastructure's failure, not the agent's (issue #36, item 5;
// docs/sandboxes.md#who-is-blamed-for-what, docs/agents.md#when-the-model-endpoint-fails): through the
// real CLI, a TypeScript agent that calls ctx.llm against a scripted or closed endpoint on loopback.
import { readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { defined } from '../support/defined.ts';
import { startModelServer, type Script } from '../support/model-server.ts';
import { MODEL, modelEnv } from './models-helpers.ts';

const local = join(FIXTURES, 'benchmarks/models-local'); // 2 samples, no sandbox
const askModel = join(FIXTURES, 'agents/ask-model.ts');
const forge = join(FIXTURES, 'agents/forge-outage.ts');

interface Run {
  code: number;
  stderr: string;
  dir: string;
  byId: Record<string, ReturnType<typeof results>[number]>;
  all: ReturnType<typeof results>;
  report: ReturnType<typeof JSON.parse>;
  calls: number;
}

/** One run of `agent` on models-local against a scripted endpoint; `[llm] max_retries = 0` unless `retries`. */
async function runOn(
  script: Script,
  agent: string,
  args: string[],
  opts: { retries?: number; bench?: string } = {},
): Promise<Run> {
  const server = await startModelServer(script);
  try {
    const o = tempDir('benchrig-outage-');
    const config = join(o, 'run.toml');
    writeFileSync(config, `[llm]\nmax_retries = ${opts.retries ?? 0}\n`);
    const bench = opts.bench ?? local;
    const r = await runCli(['run', bench, '--agent', agent, '--output', o, '--config', config, ...args], {
      env: modelEnv(server.url),
      timeoutMs: 120_000,
    });
    const dir = onlyRunDir(
      o,
      agent.endsWith('.ts') ? agent.replace(/^.*\/|\.ts$/g, '') : agent,
      bench.split('/').pop() ?? '',
    );
    const all = results(dir);
    return {
      code: r.code,
      stderr: r.stderr,
      dir,
      all,
      byId: Object.fromEntries(all.map((x) => [x.sample_id, x])),
      report: readJson(join(dir, 'evaluation_report.json')),
      calls: server.requests.length,
    };
  } finally {
    await server.close();
  }
}

describe('a model endpoint that fails', () => {
  it('is checked at load for a module agent when a model is set: a closed port is exit 3 naming it, nothing written', async () => {
    const port = await closedPort();
    const o = tempDir('benchrig-outage-');
    const r = await runCli(['run', local, '--agent', askModel, '--model', MODEL, '--mode', 'single', '--output', o], {
      env: { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` },
      timeoutMs: 60_000,
    });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`the model endpoint http://127.0.0.1:${port}/v1/models is unreachable (ECONNREFUSED)`);
    expect(r.stderr).toContain('its address comes from OPENAI_BASE_URL');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(o)).toEqual([]);
  });

  it('refuses a dead endpoint at load for a module as for react (the model set in a config file), never for nop', async () => {
    const port = await closedPort();
    const o = tempDir('benchrig-outage-');
    const config = join(o, 'run.toml');
    writeFileSync(config, `[llm]\nmodel = "${MODEL}"\n`);
    const run = (agent: string) =>
      runCli(['run', local, '--agent', agent, '--config', config, '--mode', 'single', '--output', join(o, 'runs')], {
        env: { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` },
        timeoutMs: 60_000,
      });
    const [react, module, nop] = [await run('react'), await run(askModel), await run('nop')];
    for (const r of [react, module]) {
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toContain(`the model endpoint http://127.0.0.1:${port}/v1/models is unreachable (ECONNREFUSED)`);
    }
    // nop calls no model: its run goes on, and every trial is graded.
    expect(nop.stderr).not.toContain('unreachable');
    const dir = onlyRunDir(join(o, 'runs'), 'nop', 'models-local');
    expect(results(dir).map((x) => x.status)).toEqual(['FAILED', 'FAILED']);
  });

  it('answering 503 to every call: MODEL_ERROR, left out of pass_rate, and the breaker stops the run before the rest start', async () => {
    // 8 trials in the default mode (4 processes) and the default breaker (5): the first four fail together,
    // then one more is tried alone.
    const r = await runOn(() => ({ status: 503, message: 'upstream overloaded' }), askModel, ['--trials', '4']);
    expect(r.code, r.stderr).toBe(3);
    expect(r.all).toHaveLength(5);
    for (const x of r.all) {
      expect(x.status, JSON.stringify(x.error)).toBe('MODEL_ERROR');
      expect(defined(x.error).kind).toBe('model');
      expect(defined(x.error).message).toMatch(
        /agent model fake-model-1 failed after 1 attempt: HTTP 503: upstream overloaded/,
      );
    }
    expect(r.calls).toBe(5); // the three trials that never started sent nothing
    expect(r.stderr).toMatch(
      /stopped: 5 trials in a row failed because the model endpoint did \(agent model fake-model-1 failed .*HTTP 503.*\); 3 trial\(s\) never started/,
    );
    const m = r.report.metrics;
    expect(m.status_counts.MODEL_ERROR).toBe(5);
    expect(m.status_counts.AGENT_ERROR).toBe(0);
    expect(m.pass_rate).toBeNull(); // no trial had a verdict
    expect(m.n_missing).toBe(5);
    expect(m.infra_error_rate).toBe(1);
    expect(r.report.circuit_breaker).toEqual({ error: defined(r.all[0].error).message, trials_not_started: 3 });
    expect(readJson(join(r.dir, 'run.json')).status).toBe('failed');
  });

  it("the error wrapped by the agent (as its cause) is still the endpoint; one 404 for the run's model is too", async () => {
    const r = await runOn(
      (q) => (q.body.model === MODEL ? { status: 404, message: 'no such model' } : { content: 'hello' }),
      askModel,
      ['--sample', 'greet', '--agent-opt', 'on_error=wrap'],
    );
    expect(r.byId.greet.status, r.stderr).toBe('MODEL_ERROR');
    expect(defined(r.byId.greet.error).message).toMatch(/HTTP 404: no such model/);
    expect(r.code).toBe(3); // every trial an infrastructure error
  });

  it('an agent that catches the failure and answers anyway is graded on its answer', async () => {
    const r = await runOn(() => ({ drop: true }), askModel, ['--agent-opt', 'on_error=answer', '--mode', 'single']);
    expect(r.byId.greet.status, r.stderr).toBe('PASSED'); // it said "hello"
    expect(r.byId.capitals.status).toBe('FAILED');
    expect(r.report.metrics.pass_rate).toBe(0.5);
  });

  it('an agent cannot pass its own failure off as an outage: forged errors and a model it picked are AGENT_ERROR, counted', async () => {
    const forged = await Promise.all(
      ['shape', 'class', 'llm'].map((as) => runOn([], forge, ['--sample', 'greet', '--agent-opt', `as=${as}`])),
    );
    for (const r of forged) {
      expect(r.byId.greet.status, r.stderr).toBe('AGENT_ERROR');
      expect(r.report.metrics.pass_rate).toBe(0);
      expect(r.code).toBe(0);
    }
    // The endpoint does not know the model the agent asked for: its choice, not an outage.
    const own = await runOn(
      (q) => (q.body.model === 'no-such-model' ? { status: 404, message: 'no such model' } : { content: 'hello' }),
      askModel,
      ['--sample', 'greet', '--agent-opt', 'model=no-such-model'],
    );
    expect(own.byId.greet.status, own.stderr).toBe('AGENT_ERROR');
    expect(defined(own.byId.greet.error).kind).toBe('llm');
    expect(own.report.metrics.pass_rate).toBe(0);
  });

  it("the simulated user's endpoint failing is MODEL_ERROR too", async () => {
    const bench = join(FIXTURES, 'benchmarks/models-chat'); // an LLM plays the customer
    const r = await runOn(
      (q) =>
        String(q.body.messages[0].content).includes('playing a user') ? { status: 502 } : { content: 'On its way.' },
      askModel,
      ['--mode', 'single', '--agent-opt', 'done=false'],
      { bench },
    );
    const [res] = r.all;
    expect(res.status, r.stderr).toBe('MODEL_ERROR');
    expect(defined(res.error).message).toMatch(/^user model fake-model-1 failed after 1 attempt: HTTP 502/);
  });
});

async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}
