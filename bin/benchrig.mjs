#!/usr/bin/env node
// Runs benchrig from its TypeScript source: tsx registers a loader so that no build step is needed,
// and so that agent and hook modules written in TypeScript load the same way.
import '../src/runtime-register.mjs';

const { main } = await import('../src/cli/main.ts');
await main(process.argv);
