import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The machine has 2 cores; database suites create their own databases and can share it.
    pool: 'forks',
    testTimeout: 30_000,
    // oclif prints through console.log; let it reach process.stdout so tests can capture it.
    disableConsoleIntercept: true,
  },
});
