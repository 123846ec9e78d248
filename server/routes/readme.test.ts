import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The routes' README is the map a newcomer reads first; it went stale once (it named 8 of 27
// files). Every route module must be named in it, so adding one without saying what it is fails.

const here = path.dirname(new URL(import.meta.url).pathname);

function sourcesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('server/routes/README.md', () => {
  const readme = fs.readFileSync(path.join(here, 'README.md'), 'utf8');

  it('names every route module', () => {
    const unnamed = sourcesUnder(here).filter((file) => !readme.includes(`\`${path.basename(file)}\``));
    expect(unnamed.map((file) => path.relative(here, file))).toEqual([]);
  });

  it('names no module that is gone', () => {
    const present = new Set(sourcesUnder(here).map((file) => path.basename(file)));
    const named = [...readme.matchAll(/`([A-Za-z]+\.ts)`/g)].map((match) => match[1]!);
    // `../app.ts` and the like are named as paths; only bare names are this folder's modules
    expect(named.filter((name) => !present.has(name) && name !== 'app.ts')).toEqual([]);
  });
});
