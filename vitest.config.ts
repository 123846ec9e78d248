import { defineConfig } from 'vitest/config';

// Two projects: `unit` (domain, machines, API client, pure server modules: no network, no database)
// and `api` (integration tests against a real server and database: PGlite by default,
// PostgreSQL when TEST_DATABASE_URL is set).
export default defineConfig({
  oxc: { jsx: { runtime: 'automatic' } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'server/**/*.test.ts'],
          environment: 'node',
          // property tests run hundreds of cases; `npm test` runs this lane beside three others on
          // two cores, where a second's work can take several
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          // a world (server, seed, sign-ins) starting while three other suites share two cores
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          // the runner with real processes: jobs, plugins, kill -9 of a server, two servers on one queue
          name: 'runner',
          include: ['tests/runner/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
