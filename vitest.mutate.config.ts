import { configDefaults, defineConfig } from 'vitest/config';

// The `unit` project of vitest.config.ts, alone, for Stryker (stryker.config.mjs): the vitest
// runner takes one config file and runs every project in it, and only the unit lane tests the
// mutated areas (domain, machines, policy, SQL guard, response schema) without a server or DOM.
// One difference: each test file gets its own module graph (isolate: true). Stryker switches a
// mutant on by a global its instrumented modules read; a mutant in module-level code (a constant
// table, a regex built at load) is only switched on by importing the module afresh, which a graph
// shared across files and runs (isolate: false) would never do, so those mutants would "survive".
export default defineConfig({
  oxc: { jsx: { runtime: 'automatic' } },
  test: {
    include: ['src/**/*.test.ts', 'server/**/*.test.ts'],
    exclude: [...configDefaults.exclude, 'src/ui/**'],
    environment: 'node',
    isolate: true,
    testTimeout: 30_000,
  },
});
