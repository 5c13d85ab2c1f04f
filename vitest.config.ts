import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'apps/*/test/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Every test app's log lines go to one folder per run, scanned at the end for secrets and
    // personal data: a finding fails the run (apps/server/test/varredura-da-execucao.ts).
    globalSetup: ['apps/server/test/varredura-da-execucao.ts'],
    // Each file builds its own app on its own database; two workers suit this 2-core machine.
    maxWorkers: 2,
  },
});
