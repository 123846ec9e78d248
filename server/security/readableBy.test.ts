import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitSource } from '../runner/gitFetch';
import type { Executor } from '../runner/executor';
import { describeReadProblem, readProblem, READ_WALK_LIMIT } from './readableBy';

// A local repository the job's user cannot read (issue 38): found before the job starts, named with
// its place and the fix, instead of the launcher's "Can't find source path …: Permission denied".
// The checks read permission bits, so they hold whoever runs the tests (root reads everything itself).

const JOB = { uid: 234_567 };
let base: string;

beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'readable-'));
  fs.chmodSync(base, 0o755);
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

/** A repository-like tree: `repo/.git/HEAD`, `repo/.git/objects/ab/cdef`, a working file. */
function repository(under: string): string {
  const repo = path.join(under, 'repo');
  fs.mkdirSync(path.join(repo, '.git', 'objects', 'ab'), { recursive: true, mode: 0o755 });
  fs.writeFileSync(path.join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n', { mode: 0o644 });
  fs.writeFileSync(path.join(repo, '.git', 'objects', 'ab', 'cdef'), 'x', { mode: 0o444 });
  fs.writeFileSync(path.join(repo, 'README.md'), 'hello', { mode: 0o600 });
  for (const dir of [repo, path.join(repo, '.git'), path.join(repo, '.git', 'objects'), path.join(repo, '.git', 'objects', 'ab')]) fs.chmodSync(dir, 0o755);
  return repo;
}

const gitDir = (repo: string) => path.join(repo, '.git');

describe('readProblem', () => {
  it('finds nothing when every directory above is passable and the git data readable (a working file may stay private)', () => {
    const repo = repository(base);
    expect(readProblem(repo, JOB, gitDir(repo))).toBeUndefined();
  });

  it('names the first directory above that other users cannot pass, and every one that needs opening', () => {
    const closed = path.join(base, 'closed');
    const deeper = path.join(closed, 'deeper');
    fs.mkdirSync(deeper, { recursive: true });
    fs.chmodSync(closed, 0o700);
    fs.chmodSync(deeper, 0o750);
    const repo = repository(deeper);
    expect(readProblem(repo, JOB, gitDir(repo))).toEqual({ path: closed, kind: 'directory', need: 'pass', mode: 0o700, closedAbove: [closed, deeper], closedInside: false });
  });

  it('names the repository itself, or a file or directory of its git data, that other users cannot read', () => {
    const repo = repository(base);
    fs.chmodSync(repo, 0o711);
    expect(readProblem(repo, JOB, gitDir(repo))).toMatchObject({ path: repo, kind: 'directory', need: 'read', mode: 0o711, closedAbove: [], closedInside: true });
    fs.chmodSync(repo, 0o755);
    fs.chmodSync(path.join(repo, '.git', 'objects', 'ab', 'cdef'), 0o400);
    expect(readProblem(repo, JOB, gitDir(repo))).toMatchObject({ path: path.join(repo, '.git', 'objects', 'ab', 'cdef'), kind: 'file', need: 'read', mode: 0o400 });
    fs.chmodSync(path.join(repo, '.git', 'objects'), 0o700);
    expect(readProblem(repo, JOB, gitDir(repo))).toMatchObject({ path: path.join(repo, '.git', 'objects'), kind: 'directory', mode: 0o700 });
  });

  it('does not follow links inside, and stops looking after its limit', () => {
    const repo = repository(base);
    const secret = path.join(base, 'secret');
    fs.writeFileSync(secret, 'x', { mode: 0o600 });
    fs.symlinkSync(secret, path.join(repo, '.git', 'linked'));
    expect(readProblem(repo, JOB, gitDir(repo))).toBeUndefined();
    const many = path.join(repo, '.git', 'many');
    fs.mkdirSync(many, { mode: 0o755 });
    fs.chmodSync(many, 0o755);
    for (let i = 0; i <= READ_WALK_LIMIT; i += 1) fs.writeFileSync(path.join(many, `f${String(i).padStart(6, '0')}`), '', { mode: 0o644 });
    fs.writeFileSync(path.join(repo, '.git', 'zz-private'), '', { mode: 0o600 });
    // breadth first: a private file beside the crowded directory is found…
    expect(readProblem(repo, JOB, gitDir(repo))?.path).toBe(path.join(repo, '.git', 'zz-private'));
    // …one below it, past the limit, is not looked for
    fs.rmSync(path.join(repo, '.git', 'zz-private'));
    fs.mkdirSync(path.join(many, 'zz'), { mode: 0o755 });
    fs.writeFileSync(path.join(many, 'zz', 'private'), '', { mode: 0o600 });
    expect(readProblem(repo, JOB, gitDir(repo))).toBeUndefined();
  });

  it("asks the server's own access when the job reads as the server", () => {
    const repo = repository(base);
    // the server (whoever runs this test) reads its own files whatever their bits for others
    fs.chmodSync(path.join(repo, '.git', 'HEAD'), 0o600);
    expect(readProblem(repo, 'server', gitDir(repo))).toBeUndefined();
    expect(readProblem(repo, JOB, gitDir(repo))?.path).toBe(path.join(repo, '.git', 'HEAD'));
  });
});

describe('describeReadProblem', () => {
  it('says where, why and the commands that fix it', () => {
    const repo = '/srv/git/team/repo';
    const above = { path: '/srv/git', kind: 'directory' as const, need: 'pass' as const, mode: 0o700, closedAbove: ['/srv/git', '/srv/git/team'], closedInside: true };
    expect(describeReadProblem(above, repo, JOB, 'the repository', 'deploy again')).toBe(
      '/srv/git is a directory other users cannot pass through (mode 0700). Let other users pass through and read it (chmod o+x /srv/git /srv/git/team && chmod -R o+rX /srv/git/team/repo), or move the repository to a directory they can read, then deploy again.',
    );
    const inside = { path: `${repo}/.git/HEAD`, kind: 'file' as const, need: 'read' as const, mode: 0o600, closedAbove: [], closedInside: true };
    expect(describeReadProblem(inside, repo, JOB, 'the repository', 'deploy again')).toBe(
      `${repo}/.git/HEAD is a file other users cannot read (mode 0600). Let other users pass through and read it (chmod -R o+rX ${repo}), or move the repository to a directory they can read, then deploy again.`,
    );
  });
});

describe('gitSource of a local repository', () => {
  const executor = (uid: number | undefined): Executor => ({
    kind: 'test',
    describe: () => 'test',
    paths: () => ({ project: '/project', bridgeSocket: '', tmp: '/tmp/job' }),
    jobUid: () => uid,
    start: () => {
      throw new Error('no job starts in this test');
    },
    close: () => undefined,
  });
  const source = (repo: string, uid: number | undefined) =>
    gitSource({ url: repo, branch: '', sshPrivateKey: null }, { dataDir: path.join(base, 'data'), projectDir: path.join(base, 'data', 'p'), repositoryLocalRoots: [base], executor: executor(uid), jobId: 'j', workspaceId: 'w' });

  it("refuses, before any job starts, a repository in a directory the job's user cannot pass, naming it and the fix", () => {
    const closed = path.join(base, 'closed');
    fs.mkdirSync(closed, { mode: 0o700 });
    fs.chmodSync(closed, 0o700);
    const repo = repository(closed);
    expect(source(repo, JOB.uid)).toEqual({
      ok: false,
      line: `the local repository ${repo} cannot be read by the job's user (uid ${JOB.uid}: each workspace's jobs run as a user of their own, with only the rights every user has): ${closed} is a directory other users cannot pass through (mode 0700). Let other users pass through and read it (chmod o+x ${closed}), or move the repository to a directory they can read, then deploy again.`,
    });
    // the same repository, read as the server (a server that is not root lends the job its own user)
    expect(source(repo, undefined)).toMatchObject({ ok: true, readOnlyPaths: [repo] });
    fs.chmodSync(closed, 0o711);
    expect(source(repo, JOB.uid)).toMatchObject({ ok: true, readOnlyPaths: [repo] });
  });

  it('reads a bare repository as a whole', () => {
    const bare = path.join(base, 'bare.git');
    fs.mkdirSync(path.join(bare, 'refs'), { recursive: true });
    fs.chmodSync(bare, 0o755);
    fs.chmodSync(path.join(bare, 'refs'), 0o700);
    const refused = source(bare, JOB.uid);
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.line).toContain(`${path.join(bare, 'refs')} is a directory other users cannot read (mode 0700)`);
    expect(!refused.ok && refused.line).toContain(`chmod -R o+rX ${bare}`);
  });
});
