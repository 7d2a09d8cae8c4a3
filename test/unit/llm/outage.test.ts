// Which failed calls are the endpoint's (src/llm/outage.ts, docs/agents.md#when-the-model-endpoint-fails), over real
// HTTP on loopback: the client names only the errors it threw itself, and only for the endpoint's reasons.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { LlmError } from '../../../src/errors.ts';
import { createLlmClient } from '../../../src/llm/client.ts';
import type { Script } from '../../support/model-server.ts';
import { FAST, hello, llmConfig, serverPerTest } from './helpers.ts';

const server = serverPerTest();

/** The error of one call made with `url`, and whether the client names it an outage. */
async function fail(url: string, req: { model?: string } = {}, over = {}) {
  const llm = createLlmClient({
    config: llmConfig(url, { max_retries: 1, ...over }),
    role: 'agent',
    budget: null,
    retry: FAST,
  });
  const err = await llm.chat({ ...hello, ...req }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LlmError);
  return { err: err as LlmError, outage: llm.outageIn(err), llm };
}

const scripted = async (script: Script) => (await server(script)).url;

describe("the endpoint's failures", () => {
  it.each([
    ['401', { status: 401 }],
    ['403', { status: 403 }],
    ['404 for the run’s model', { status: 404 }],
    ['500 after the retries', { status: 500 }],
    ['503 after the retries', { status: 503 }],
    ['a dropped connection', { drop: true as const }],
  ])('%s is an outage', async (_name, step) => {
    const { err, outage } = await fail(await scripted(() => step));
    expect(outage).toBe(err);
  });

  it('a refused connection, an unknown host and a TLS handshake with a plain server are outages', async () => {
    const port = await closedPort();
    for (const url of [
      `http://127.0.0.1:${port}/v1`,
      'http://benchrig-no-such-host.invalid/v1',
      `https://127.0.0.1:${(await server([])).port}/v1`,
    ]) {
      const { err, outage } = await fail(url);
      expect(outage, `${url}: ${err.message}`).toBe(err);
    }
  });

  it.each([
    ['a 400', { status: 400 }],
    ['a 429 after the retries', { status: 429 }],
    ['a timeout', { delayMs: 1000, content: 'late' }],
  ])('%s is the call’s, not an outage', async (_name, step) => {
    const { outage } = await fail(await scripted(() => step), {}, { timeout_s: 0.3 });
    expect(outage).toBeNull();
  });

  it('a 404 for a model the caller chose is the caller’s', async () => {
    const { outage } = await fail(await scripted(() => ({ status: 404 })), { model: 'its-own-model' });
    expect(outage).toBeNull();
  });

  it('only the error the client threw counts, or one that has it as its cause; a look-alike never', async () => {
    const { err, llm } = await fail(await scripted(() => ({ status: 503 })));
    expect(llm.outageIn(new Error('wrapped', { cause: err }))).toBe(err);
    expect(llm.outageIn(new LlmError(err.message, 503))).toBeNull();
    expect(llm.outageIn(Object.assign(new Error(err.message), { name: 'LlmError', kind: 'model' }))).toBeNull();
    const other = createLlmClient({ config: llmConfig('http://127.0.0.1:9/v1'), role: 'agent', budget: null });
    expect(other.outageIn(err)).toBeNull(); // another client's (another trial's) error is not this one's
  });
});

async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}
