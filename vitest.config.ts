import { defineConfig } from 'vitest/config';

// The 200-trial compose run (docs/development.md#setup-and-tests) takes minutes and, on a loaded Docker
// 20.10, its leftovers check does not hold yet: it runs with `npm run test:scale`, not in `npm test`.
const SCALE = ['test/e2e/compose-scale.test.ts'];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // test/integration/sandbox/kubernetes/ and test/e2e/**/kubernetes-*: `npm run test:k8s` (vitest.k8s.config.ts), on the local cluster.
    exclude: [
      'test/perf/**',
      'node_modules/**',
      'test/integration/sandbox/kubernetes/**/*.test.ts',
      'test/e2e/**/kubernetes-*.test.ts',
      ...(process.env.BENCHRIG_SCALE ? [] : SCALE),
    ],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
