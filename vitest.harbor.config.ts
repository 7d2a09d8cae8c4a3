import { defineConfig } from 'vitest/config';

// `npm run test:harbor` (docs/export.md#checking-an-export): what `benchrig export` writes, read by
// Harbor's own ATIF validator and viewer, installed once into the cache. Not part of `npm test`,
// which needs no Python.
export default defineConfig({
  test: {
    include: ['test/harbor/**/*.harbor.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 600_000,
  },
});
