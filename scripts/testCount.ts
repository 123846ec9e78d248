// `npm run test:count [-- --project unit ...]`: how many vitest tests are written by hand and how
// many are generated path replays (issue 40). A replay is a path xstate/graph generated from a
// machine, replayed against the same machine: it checks the machine against snapshots the machine
// made, so it is counted apart from the tests whose expectations a person wrote. Replays are named
// `replay: <path>` (src/machines/*/*.test.ts); everything else counts as written.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

type Listed = { readonly name: string; readonly file: string; readonly projectName?: string };

/** Every test vitest collects (no test runs; each file is imported, which generates the paths). */
function listTests(args: readonly string[]): Listed[] {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'test-count-')), 'list.json');
  const result = spawnSync(path.resolve('node_modules/.bin/vitest'), ['list', `--json=${out}`, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0 || !fs.existsSync(out)) throw new Error(`vitest list failed (exit ${result.status ?? result.signal})`);
  return JSON.parse(fs.readFileSync(out, 'utf8')) as Listed[];
}

/** The test's own title is the last segment of `describe > ... > title`. */
function isReplay(fullName: string): boolean {
  return (fullName.split(' > ').at(-1) ?? '').startsWith('replay: ');
}

const tests = listTests(process.argv.slice(2));
const replays = tests.filter((test) => isReplay(test.name)).length;
console.log(`written ${tests.length - replays}, generated replays ${replays}`);
