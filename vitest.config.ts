import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// TEST_TOPOLOGY=cluster|halves (decision 041): each file starts the server as processes (six
// on a cluster), which takes a minute or two on two busy cores; one file at a time.
const apart = ['cluster', 'halves'].includes(
  process.env.TEST_TOPOLOGY || process.env.TEST_SINO_TOPOLOGY || 'one',
);

export default defineConfig({
  // Workspace packages are tested from their sources: the "source" export condition
  // (e.g. @sino/js) wins over dist/, for node and DOM (jsdom) environments alike.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  // Without the bundlers' `module`, which Node ignores: OpenTelemetry's packages name an ES
  // build under it whose imports have no file extension, and Node cannot load it.
  ssr: {
    resolve: {
      conditions: ['source', ...defaultServerConditions.filter((c) => c !== 'module')],
    },
  },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'packages/*/test/**/*.test.tsx',
      'apps/*/test/**/*.test.ts',
      // The repository's own checks (lint, build and start scripts).
      'test/**/*.test.ts',
      'scripts/test/**/*.test.ts',
    ],
    testTimeout: apart ? 60_000 : 30_000,
    // A file's app starts in its beforeAll (migrations of both halves, Sino's bootstrap, the
    // re-seal check): on a busy two-core machine that took over 60 s.
    hookTimeout: apart ? 300_000 : 120_000,
    // Every test app's log lines go to one folder per run, scanned at the end for secrets and
    // personal data: a finding fails the run (apps/server/test/varredura-da-execucao.ts).
    globalSetup: ['apps/server/test/varredura-da-execucao.ts'],
    // Each file builds its own app on its own database; two workers suit this 2-core machine.
    maxWorkers: apart ? 1 : 2,
    // Each file loads its modules afresh (vitest's isolation). Sharing them (`isolate: false`)
    // ran the suite faster (on PostgreSQL, quiet machine: 248 s against 315 s), but files that
    // depend on a fresh module state failed by the order the files met in a worker: decision
    // 043, not enabled yet.
    isolate: true,
    // Tests that need the app in the test's own process (its services, its engine, a fake
    // clock, a restart on kept storage) carry this tag, each file or suite with its reason:
    // skipped when the server runs as processes of its own (decision 041).
    tags: [
      {
        name: 'one-process',
        description:
          "needs the app in the test's process; skipped with TEST_TOPOLOGY=cluster|halves",
        skip: apart,
      },
    ],
  },
});
