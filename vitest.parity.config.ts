import { defineConfig } from 'vitest/config';

// `npm run test:parity` (docs/swebench.md#parity): benchrig's SWE-bench grading against the official
// Python package, installed once into the cache. Not part of `npm test`, which needs no Python.
export default defineConfig({
  test: {
    include: ['test/parity/**/*.parity.ts'],
    testTimeout: 60_000,
    hookTimeout: 300_000,
  },
});
