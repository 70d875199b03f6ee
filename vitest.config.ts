import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts', 'rules/**/*.ts'],
      exclude: ['src/cli/bin.ts'],
      reporter: ['text-summary'],
      thresholds: { statements: 85, branches: 75, functions: 85, lines: 85 },
    },
  },
});
