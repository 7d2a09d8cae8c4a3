const which = process.argv[2];
const r0 = process.memoryUsage().rss;
await import(which);
globalThis.gc?.();
console.log(which, 'base', (r0/1e6).toFixed(0), '+', ((process.memoryUsage().rss-r0)/1e6).toFixed(0), 'heap', (process.memoryUsage().heapUsed/1e6).toFixed(0));
