// `npm run mutate [-- --mutate <globs>] [--tests domain] [other stryker flags]`: Stryker over stryker.config.mjs.
// `--mutate` is taken here rather than by Stryker so the config still leaves out tests and
// fixtures (`--mutate 'src/machines/**/*.ts'` alone would mutate the machines' test files too) and
// names the report and incremental files after the globs, so areas run side by side keep apart.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const env: NodeJS.ProcessEnv = { ...process.env };
const at = args.findIndex((arg) => arg === '--mutate' || arg === '-m' || arg.startsWith('--mutate='));
if (at >= 0) {
  const arg = args[at] ?? '';
  const globs = arg.startsWith('--mutate=') ? arg.slice('--mutate='.length) : args[at + 1];
  if (globs === undefined || globs === '') throw new Error('--mutate needs a glob (or a comma-separated list of globs)');
  args.splice(at, arg.startsWith('--mutate=') ? 1 : 2);
  env.STRYKER_MUTATE = globs;
  // 'src/machines/**/*.ts' -> 'src-machines'; a file -> its path without the extension
  env.STRYKER_SLUG = globs.split(',')[0]!.replace(/\*.*$|\.ts$/, '').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'some';
}

// `--tests domain`: the tests that judge the mutants are src/domain's own (vitest.mutate.domain.config.ts),
// not every unit test that imports the mutated file; without it, the unit lane (vitest.mutate.config.ts).
const testsAt = args.findIndex((arg) => arg === '--tests' || arg.startsWith('--tests='));
if (testsAt >= 0) {
  const arg = args[testsAt] ?? '';
  const tests = arg.startsWith('--tests=') ? arg.slice('--tests='.length) : args[testsAt + 1];
  if (tests !== 'domain') throw new Error(`--tests takes 'domain' (the domain's own tests), not ${JSON.stringify(tests)}`);
  args.splice(testsAt, arg.startsWith('--tests=') ? 1 : 2);
  env.STRYKER_VITEST_CONFIG = 'vitest.mutate.domain.config.ts';
  // its own incremental file and report: results judged by other tests are not reused
  env.STRYKER_SLUG = `${env.STRYKER_SLUG ?? 'all'}-by-domain-tests`;
}

// src/domain/errors.test.ts reads the spec at ../shared/spec beside the repository, three levels up
// from its own folder. In the sandbox (.stryker-tmp/sandbox-*/src/domain) that is .stryker-tmp/shared:
// link it there, so the spec check runs (and kills message mutants) as it does in the checkout.
const spec = path.resolve('..', 'shared');
const link = path.resolve('.stryker-tmp', 'shared');
if (fs.existsSync(spec) && !fs.existsSync(link)) {
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.symlinkSync(spec, link, 'dir');
}

const child = spawn(path.resolve('node_modules/.bin/stryker'), ['run', 'stryker.config.mjs', ...args], { stdio: 'inherit', env });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
