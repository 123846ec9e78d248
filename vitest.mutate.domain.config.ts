import { configDefaults, defineConfig } from 'vitest/config';

// `npm run mutate -- --tests domain --mutate 'src/domain/…'` (scripts/mutate.ts): the domain's own
// tests alone judge its mutants. With vitest.mutate.config.ts every unit test that imports a domain
// file runs in the dry run, which is most of the lane (the machines' generated replays import the
// domain), past 40 minutes on a shared two-core host; a domain mutant only the replays would catch
// is one the domain's tests miss, which is what the score should show. Isolated per file, as
// vitest.mutate.config.ts explains.
export default defineConfig({
  oxc: { jsx: { runtime: 'automatic' } },
  test: {
    include: ['src/domain/**/*.test.ts'],
    exclude: [...configDefaults.exclude],
    environment: 'node',
    isolate: true,
    testTimeout: 30_000,
  },
});
