const r0 = process.memoryUsage().rss;
await import('../../../src/run/orchestrator.ts');
const r1 = process.memoryUsage().rss;
globalThis.gc?.();
console.log('base', (r0/1e6).toFixed(0), 'after orchestrator import', (r1/1e6).toFixed(0), 'heap', (process.memoryUsage().heapUsed/1e6).toFixed(0), 'maxRSS', (process.resourceUsage().maxRSS/1e3).toFixed(0));
