import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // test/{integration,e2e}/**/kubernetes-*: `npm run test:k8s` (vitest.k8s.config.ts), on the local cluster.
    exclude: [
      'test/perf/**',
      'node_modules/**',
      'test/integration/**/kubernetes-*.test.ts',
      'test/e2e/**/kubernetes-*.test.ts',
    ],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
