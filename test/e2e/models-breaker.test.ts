// The circuit breaker through the real CLI (docs/agents.md#circuit-breaker): a model that answers the start-time check and
// then drops every call fails N trials in a row (MODEL_ERROR); the run stops there, exits 3 naming
// the error, and its report says how many trials never started. The same model error on the first N
// trials (AGENT_ERROR kind llm: here a 400) trips it too.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, onlyRunDir, readJson, results, runCli, tempDir } from '../support/cli.ts';
import { startModelServer, type Script } from '../support/model-server.ts';
import { modelEnv } from './models-helpers.ts';
import { defined } from '../support/defined.ts';

const BENCH = join(FIXTURES, 'benchmarks/models-local'); // 2 samples; 3 trials each = 6 trials

async function run(script: Script, breaker: number | null) {
  const server = await startModelServer(script);
  try {
    const o = tempDir('benchrig-breaker-');
    const config = join(o, 'run.toml');
    // no retries: each trial fails in one call, so six trials take seconds
    writeFileSync(
      config,
      `[llm]\nbase_url = "${server.url}"\napi_key = "\${OPENAI_API_KEY}"\nmodel = "m"\nmax_retries = 0\n${breaker === null ? '' : `[run]\ncircuit_breaker = ${breaker}\n`}`,
    );
    const r = await runCli(
      ['run', BENCH, '--agent', 'react', '--trials', '3', '--mode', 'single', '--output', o, '--config', config],
      { env: modelEnv(server.url), timeoutMs: 120_000 },
    );
    const dir = onlyRunDir(o, 'react', 'models-local');
    return {
      ...r,
      results: results(dir),
      report: readJson(join(dir, 'evaluation_report.json')),
      run: readJson(join(dir, 'run.json')),
      calls: server.requests.length,
    };
  } finally {
    await server.close();
  }
}

describe('the model circuit breaker', () => {
  it('N trials in a row dropped by the model: no further trial starts, exit 3, the report counts the rest', async () => {
    const r = await run(() => ({ drop: true }), 2);
    expect(r.code, r.stderr).toBe(3);
    expect(r.results).toHaveLength(2);
    expect(r.results.every((x) => x.status === 'MODEL_ERROR' && defined(x.error).kind === 'model')).toBe(true);
    expect(r.calls).toBe(2); // nothing was sent for the trials that never started
    expect(r.stderr).toMatch(
      /stopped: 2 trials in a row failed because the model endpoint did \(.*(other side closed|UND_ERR_SOCKET|socket hang up|ECONNRESET).*\); 4 trial\(s\) never started/,
    );
    expect(r.report.circuit_breaker).toEqual({ error: defined(r.results[0].error).message, trials_not_started: 4 });
    expect(r.run.status).toBe('failed');
  });

  it('the same 400 on the first N trials trips it; an endpoint failure between others does not', async () => {
    const same = await run(() => ({ status: 400, message: 'bad request' }), 2);
    expect(same.code, same.stderr).toBe(3);
    expect(same.results.every((x) => x.status === 'AGENT_ERROR' && defined(x.error).kind === 'llm')).toBe(true);
    expect(same.stderr).toMatch(
      /stopped: the first 2 trials all failed with the same model error \(.*HTTP 400: bad request\); 4 trial\(s\) never started/,
    );
    // drop, 400, drop, 400…: never two endpoint failures in a row, never the same error on the first two
    const r = await run((_q, n) => (n % 2 === 0 ? { status: 400, message: 'bad request' } : { drop: true }), 2);
    expect(r.results).toHaveLength(6);
    expect(r.report.circuit_breaker).toBeUndefined();
    expect(r.stderr).not.toContain('never started');
  });

  it('circuit_breaker = 0 turns it off', async () => {
    const r = await run(() => ({ drop: true }), 0);
    expect(r.results).toHaveLength(6);
    expect(r.report.circuit_breaker).toBeUndefined();
  });
});
