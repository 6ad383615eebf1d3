import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/api/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/support/pg-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    env: { SILODESK_CHECK_OUTPUT: '1' },
  },
});
