import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectPathRefused, isInside, readFileInside, realPathInside, replaceFileInside } from './projectFiles';

// A project and a neighbour outside it, with the links a hostile workspace would plant.
let base: string;
let project: string;
let outside: string;
beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'project-files-'));
  project = path.join(base, 'project');
  outside = path.join(base, 'other-project');
  fs.mkdirSync(path.join(project, 'data'), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(project, 'data', 'ok.csv'), 'a\n1\n');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(project, 'data', 'secret-link.csv'));
  fs.symlinkSync(outside, path.join(project, 'data', 'dir-link'));
  fs.symlinkSync('../../other-project/secret.txt', path.join(project, 'data', 'relative-link.csv'));
  fs.symlinkSync('ok.csv', path.join(project, 'data', 'inner-link.csv'));
  fs.symlinkSync('/etc/passwd', path.join(project, 'passwd.csv'));
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

const refused = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ProjectPathRefused);
    return (error as Error).message;
  }
  throw new Error('not refused');
};

describe('realPathInside', () => {
  it('resolves files inside, also through a link that stays inside', () => {
    expect(realPathInside(project, 'data/ok.csv')).toBe(fs.realpathSync(path.join(project, 'data', 'ok.csv')));
    expect(realPathInside(project, 'data/inner-link.csv')).toBe(fs.realpathSync(path.join(project, 'data', 'ok.csv')));
    expect(realPathInside(project, path.join(project, 'data'))).toBe(fs.realpathSync(path.join(project, 'data')));
  });

  it('refuses absolute paths, .. and links that lead out', () => {
    expect(refused(() => realPathInside(project, '/etc/passwd'))).toMatch(/leads outside/);
    expect(refused(() => realPathInside(project, '../other-project/secret.txt'))).toMatch(/leads outside/);
    expect(refused(() => realPathInside(project, 'data/secret-link.csv'))).toMatch(/leads outside/);
    expect(refused(() => realPathInside(project, 'data/relative-link.csv'))).toMatch(/leads outside/);
    expect(refused(() => realPathInside(project, 'data/dir-link/secret.txt'))).toMatch(/leads outside/);
    expect(refused(() => realPathInside(project, 'passwd.csv'))).toMatch(/leads outside/);
    expect(refused(() => realPathInside(project, 'missing.csv'))).toMatch(/does not exist/);
  });

  it('never answers a path outside the project, whatever the path is made of', () => {
    const segment = fc.constantFrom('..', '.', 'data', 'ok.csv', 'secret-link.csv', 'dir-link', 'relative-link.csv', 'inner-link.csv', 'passwd.csv', 'secret.txt', 'other-project', '', base.slice(1));
    fc.assert(
      fc.property(fc.boolean(), fc.array(segment, { maxLength: 6 }), (absolute, parts) => {
        const entry = `${absolute ? '/' : ''}${parts.join('/')}`;
        try {
          expect(isInside(fs.realpathSync(project), realPathInside(project, entry)), entry).toBe(true);
        } catch (error) {
          expect(error, entry).toBeInstanceOf(ProjectPathRefused);
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe('readFileInside', () => {
  it('reads a regular file inside and refuses any link, a directory and a path out', () => {
    expect(readFileInside(project, 'data/ok.csv', 100).toString()).toBe('a\n1\n');
    expect(refused(() => readFileInside(project, 'data/secret-link.csv', 100))).toMatch(/symbolic link/);
    expect(refused(() => readFileInside(project, 'data/inner-link.csv', 100))).toMatch(/symbolic link/);
    expect(refused(() => readFileInside(project, 'passwd.csv', 100))).toMatch(/symbolic link/);
    expect(refused(() => readFileInside(project, 'data/dir-link/secret.txt', 100))).toMatch(/leads outside/);
    expect(refused(() => readFileInside(project, '../other-project/secret.txt', 100))).toMatch(/outside the project/);
    expect(refused(() => readFileInside(project, 'data', 100))).toMatch(/not a regular file/);
    expect(() => readFileInside(project, 'data/ok.csv', 2)).toThrow(/larger than 2 bytes/);
  });
});

describe('replaceFileInside', () => {
  it('replaces a planted link instead of writing through it', () => {
    const target = path.join(outside, 'target.yml');
    fs.writeFileSync(target, 'untouched');
    fs.symlinkSync(target, path.join(project, 'meltano.yml'));
    replaceFileInside(project, 'meltano.yml', 'version: 1\n');
    expect(fs.readFileSync(target, 'utf8')).toBe('untouched');
    expect(fs.lstatSync(path.join(project, 'meltano.yml')).isFile()).toBe(true);
    expect(fs.readFileSync(path.join(project, 'meltano.yml'), 'utf8')).toBe('version: 1\n');
    expect(fs.readdirSync(project).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses a name with a directory in it and a directory that is a link', () => {
    expect(refused(() => replaceFileInside(project, '../escape.yml', 'x'))).toMatch(/not a file name/);
    expect(refused(() => replaceFileInside(path.join(project, 'data', 'dir-link'), 'x.yml', 'x'))).toMatch(/not a directory/);
    expect(fs.existsSync(path.join(outside, 'x.yml'))).toBe(false);
  });
});
