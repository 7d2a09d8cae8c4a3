import { defineConfig } from 'vitest/config';

// `npm run test:k8s` (docs/kubernetes.md#tests): the Kubernetes provider against the local cluster of
// scripts/k8s-up.sh, which the tests start when it is not up (as root). Not part of `npm test`.
export default defineConfig({
  test: {
    include: ['test/integration/sandbox/kubernetes/**/*.test.ts', 'test/e2e/**/kubernetes-*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 900_000,
    pool: 'forks',
    maxWorkers: 1,
  },
});
