// Loads an agent module in a thread of its own, calls its factory once and says what it returned
// (probe.ts). Plain JavaScript: the main process hands it the module's compiled URL and the
// contract's (agents/contract.ts), so it needs no loader.
import { parentPort, workerData } from 'node:worker_threads';

process.setSourceMapsEnabled(true); // an error at import names the TypeScript line

/** What the factory may not use at the load check: no trial, so no sandbox and no model yet. */
class LoadCheckUnavailable extends Error {
  constructor(what) {
    super(`${what} is not available while benchrig checks the agent module (docs/agents.md#writing-an-agent)`);
    this.name = 'LoadCheckUnavailable';
  }
}
const refuse = (what) => () => Promise.reject(new LoadCheckUnavailable(what));
const SANDBOX_METHODS = ['exec', 'readFile', 'writeFile', 'copyIn', 'copyOut', 'restart', 'health', 'transfer'];

/** A context shaped as a trial's (docs/agents.md): the first sample, the options; its sandbox and model refuse every call. */
function loadCheckContext({ sample, options, sandbox, maxLlmCalls }) {
  return {
    sessionId: 'load-check',
    sample,
    sandbox: sandbox
      ? Object.freeze({
          id: 'load-check',
          image: sandbox.image,
          workdir: sandbox.workdir,
          ...Object.fromEntries(SANDBOX_METHODS.map((m) => [m, refuse(`ctx.sandbox.${m}`)])),
        })
      : undefined,
    llm: Object.freeze({ chat: refuse('ctx.llm.chat'), callsUsed: 0, callsLeft: maxLlmCalls }),
    options,
    signal: new AbortController().signal,
    record() {},
  };
}

const thrown = (err) => {
  const e = err instanceof Error ? err : null;
  return { name: e?.name ?? '', message: e ? e.message : `threw ${String(err)}`, stack: e?.stack ?? '' };
};

async function check() {
  let mod;
  try {
    mod = await import(workerData.url);
  } catch (err) {
    return { kind: 'thrown', thrown: thrown(err) };
  }
  // The same rule as loadAgent: `default`, else `createAgent`.
  const factory = mod.default ?? mod.createAgent;
  if (typeof factory !== 'function')
    return { kind: 'no-factory', exports: Object.keys(mod), factoryType: factory === null ? 'null' : typeof factory };
  const { shapeOf } = await import(workerData.contractUrl);
  let agent;
  try {
    agent = await factory(loadCheckContext(workerData.context));
  } catch (err) {
    // A factory that needs its trial's sandbox or model already cannot be checked further here.
    if (err instanceof LoadCheckUnavailable) return { kind: 'ok' };
    return { kind: 'factory-threw', thrown: thrown(err) };
  }
  const shape = shapeOf(agent);
  // The agent's own cleanup (a browser, a connection), bounded: the thread ends right after anyway.
  if (typeof agent?.close === 'function')
    await Promise.race([Promise.resolve().then(() => agent.close()), new Promise((r) => setTimeout(r, 5000))]).catch(
      () => {},
    );
  return { kind: 'agent', shape };
}

parentPort.postMessage(await check());
