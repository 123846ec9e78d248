import { configDefaults, defineConfig } from 'vitest/config';

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
          include: ['src/**/*.test.ts', 'server/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'src/ui/**'],
          environment: 'node',
          // One module graph for every file of a worker: a process and a fresh import of the same
          // modules per file were two thirds of this lane's time. Files that replace modules
          // (vi.mock) or need a DOM live in 'unit-ui', isolated.
          isolate: false,
          // property tests run hundreds of cases; `npm test` runs this lane beside three others on
          // two cores, where a second's work can take several
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          // React components under happy-dom, some with modules replaced (vi.mock): a graph each
          name: 'unit-ui',
          include: ['src/**/*.test.tsx', 'src/ui/**/*.test.ts'],
          environment: 'node',
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
          // Every file starts its own server and database, and none replaces a module: they share
          // one process and one import of the server (a process and an import per file took
          // longer than the tests on a loaded host).
          isolate: false,
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
