// Mutation testing (issue 40): `npm run mutate` (scripts/mutate.ts) runs this over the areas whose
// tests must catch small breaks. Targets: 80 % on the domain, the policy, the SQL guard and the
// response schema; 70 % on the machines. Scores and the survivors left are in docs/mutation.md.

// What is mutated: the source of each area, never its tests or fixtures.
const AREAS = [
  'src/domain/**/*.ts',
  'src/machines/**/*.ts',
  'server/policy/**/*.ts',
  'server/stores/queryGuard.ts',
  'server/http/responseSchema.ts',
];
// src/machines/testing is the model tests' harness: test code, which only its own tests could judge
const NOT_SOURCE = ['!**/*.test.ts', '!**/*.fixture.ts', '!**/*.d.ts', '!src/machines/testing/**'];

// scripts/mutate.ts passes `--mutate <globs>` here (a comma-separated list, as Stryker's own flag
// takes) so one area can be run alone with the exclusions above still applied, and names its
// report and incremental files after the area, so two areas run side by side do not overwrite
// each other's results.
const only = process.env.STRYKER_MUTATE?.split(',').map((glob) => glob.trim()).filter(Boolean);
const slug = process.env.STRYKER_SLUG ?? 'all';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  // the unit lane, or (`--tests domain`) the domain's own tests: vitest.mutate.domain.config.ts
  vitest: { configFile: process.env.STRYKER_VITEST_CONFIG ?? 'vitest.mutate.config.ts', related: true },
  mutate: [...(only ?? AREAS), ...NOT_SOURCE],
  // each test runs only against the mutants it reached in the dry run
  coverageAnalysis: 'perTest',
  // Results are kept between runs (reports/, gitignored: a local cache, megabytes of test names);
  // a run re-tests only mutants in changed code or reached by changed tests.
  incremental: true,
  incrementalFile: `reports/stryker-incremental-${slug}.json`,
  // The host has two cores shared with other work.
  concurrency: 2,
  // a loaded host can take several times a test's dry-run time
  timeoutMS: 10_000,
  timeoutFactor: 2,
  // The dry run runs every test that imports a mutated file: for the domain that is most of the unit
  // lane (the machines' replays import it), past Stryker's default 5 minutes on a shared host.
  dryRunTimeoutMinutes: 40,
  // The lowest target (the machines'); the per-area targets are checked in docs/mutation.md.
  thresholds: { high: 80, low: 70, break: null },
  reporters: ['clear-text', 'progress', 'json', 'html'],
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0, reportScoreTable: true },
  jsonReporter: { fileName: `reports/mutation/${slug}.json` },
  htmlReporter: { fileName: `reports/mutation/${slug}.html` },
  // Only what the unit tests import is copied into the sandbox.
  ignorePatterns: ['dist', 'dist-server', 'data', 'bench', 'public', 'reports', 'test-results', 'playwright-report', '.build-stamps', '.vitest'],
  tempDirName: '.stryker-tmp',
  // The runner child keeps vite's module graph; a fresh one every 200 mutants bounds its memory.
  maxTestRunnerReuse: 200,
};
