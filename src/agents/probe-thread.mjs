// Loads an agent module in a thread of its own and says whether it has a factory (probe.ts). Plain
// JavaScript: the main process hands it the module's compiled URL, so it needs no loader.
import { parentPort, workerData } from 'node:worker_threads';

process.setSourceMapsEnabled(true); // an error at import names the TypeScript line
try {
  const mod = await import(workerData.url);
  // The same rule as loadAgentFactory: `default`, else `createAgent`.
  const factory = mod.default ?? mod.createAgent;
  if (typeof factory === 'function') parentPort.postMessage({ kind: 'ok' });
  else
    parentPort.postMessage({
      kind: 'no-factory',
      exports: Object.keys(mod),
      factoryType: factory === null ? 'null' : typeof factory,
    });
} catch (err) {
  const e = err instanceof Error ? err : null;
  parentPort.postMessage({
    kind: 'thrown',
    thrown: { name: e?.name ?? '', message: e ? e.message : `threw ${String(err)}`, stack: e?.stack ?? '' },
  });
}
