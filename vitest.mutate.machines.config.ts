import { configDefaults, defineConfig } from 'vitest/config';

// Stryker over src/machines (docs/mutation.md, Machines): STRYKER_VITEST_CONFIG=vitest.mutate.machines.config.ts
// `npm run mutate -- --mutate 'src/machines/<name>/**/*.ts'`. As vitest.mutate.config.ts (isolated
// per file, for the module-level mutants that are nearly all of a machine's), with two differences:
// - Only src/machines' tests: outside src/ui (not in the unit lane) no other test imports a machine,
//   and vitest works out which files are related to a mutant over far fewer files.
// - A test fails after 5 s, not 30. A mutant that keeps a machine from reaching a state leaves a
//   hand-written test waiting in `waitFor` (no timeout of its own); Stryker's own bound (10 s and
//   more) then calls it a timeout and restarts its vitest worker, which cost a third of a run's
//   time. Both verdicts count as detected; the slowest test of a machine this is used for takes
//   under a second on its own.
export default defineConfig({
  oxc: { jsx: { runtime: 'automatic' } },
  test: {
    include: ['src/machines/**/*.test.ts'],
    exclude: [...configDefaults.exclude],
    environment: 'node',
    isolate: true,
    testTimeout: 5_000,
  },
});
