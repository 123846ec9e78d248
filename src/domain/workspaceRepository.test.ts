import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileStringWithHuge } from './hostile.fixture';
import { allowsGithubInstallation, allowsSshKey, isBranchName, isRemoteGitUrl, parseRepositoryUrl } from './workspaceRepository';

describe('repository URLs', () => {
  it('reads https, ssh, scp-like and local paths; refuses other transports and option-like text', () => {
    expect(parseRepositoryUrl('https://github.com/acme/data')).toEqual({ kind: 'https', host: 'github.com' });
    expect(parseRepositoryUrl('git@GitHub.com:acme/data.git')).toEqual({ kind: 'ssh', host: 'github.com' });
    expect(parseRepositoryUrl('ssh://git@example.org/acme/data.git')).toEqual({ kind: 'ssh', host: 'example.org' });
    expect(parseRepositoryUrl('/srv/git/data')).toEqual({ kind: 'local', host: undefined });
    for (const bad of ['', 'ext::sh -c touch% /tmp/x', 'file:///etc', 'http://example.com/a.git', '--upload-pack=touch', '/srv/../etc', 'https://github.com', 'git@host:', 'a b']) {
      expect(parseRepositoryUrl(bad), bad).toBeUndefined();
    }
  });

  it('enables the branch for remote git URLs, the key for git@ URLs, the installation id for GitHub', () => {
    expect(isRemoteGitUrl('https://example.org/acme/data.git')).toBe(true);
    expect(isRemoteGitUrl('https://gitlab.com/acme/data')).toBe(true);
    expect(isRemoteGitUrl('https://example.org/acme/data')).toBe(false);
    expect(isRemoteGitUrl('/srv/git/data.git')).toBe(false);
    expect(allowsSshKey('git@github.com:a/b.git')).toBe(true);
    expect(allowsSshKey('https://github.com/a/b')).toBe(false);
    expect(allowsGithubInstallation('https://github.com/a/b')).toBe(true);
    expect(allowsGithubInstallation('git@gitlab.com:a/b.git')).toBe(false);
    expect(allowsGithubInstallation(null)).toBe(false);
  });

  it('accepts git branch names and refuses the rest', () => {
    for (const good of ['main', 'feature/x', 'release-1.2', 'v1_0']) expect(isBranchName(good), good).toBe(true);
    for (const bad of ['', '-x', '../main', 'a..b', 'a b', 'x.lock', 'a//b', '/a', 'a/', '.hidden', 'a/.b']) expect(isBranchName(bad), bad).toBe(false);
  });

  it('never throws on hostile text, and what it accepts has no spaces, control characters or a leading dash', () => {
    fc.assert(
      fc.property(hostileStringWithHuge, (text) => {
        const parsed = parseRepositoryUrl(text);
        isRemoteGitUrl(text);
        allowsSshKey(text);
        allowsGithubInstallation(text);
        if (parsed) expect(/^\s*-|[\s\u0000-\u001f]/.test(text.trim())).toBe(false);
        if (isBranchName(text)) expect(/^[A-Za-z0-9._/-]+$/.test(text)).toBe(true);
      }),
    );
  });
});

describe('repository URLs, rule by rule', () => {
  it('takes a URL of 2000 characters and refuses 2001', () => {
    const at2000 = `https://example.org/${'a'.repeat(1980)}`;
    expect(at2000).toHaveLength(2000);
    expect(parseRepositoryUrl(at2000)).toEqual({ kind: 'https', host: 'example.org' });
    expect(parseRepositoryUrl(`${at2000}b`)).toBeUndefined();
  });

  it('refuses a control character, DEL or any white space inside a URL it could otherwise read', () => {
    for (const c of ['\u0001', '\u001f', '\u007f', ' ', '\u00a0', '\u2003']) {
      expect(parseRepositoryUrl(`https://example.org/a${c}b`), c.codePointAt(0)!.toString(16)).toBeUndefined();
      expect(parseRepositoryUrl(`git@example.org:a${c}b`), c.codePointAt(0)!.toString(16)).toBeUndefined();
    }
    expect(parseRepositoryUrl('  https://example.org/a  ')).toEqual({ kind: 'https', host: 'example.org' });
  });

  it('reads the scp-like form with any plain user and host, and nothing around it', () => {
    expect(parseRepositoryUrl('A.b_c-9@My-Host.example.com:owner/repo')).toEqual({ kind: 'ssh', host: 'my-host.example.com' });
    expect(parseRepositoryUrl('git@10.0.0.1:owner/repo.git')).toEqual({ kind: 'ssh', host: '10.0.0.1' });
    expect(parseRepositoryUrl('git@h:x')).toEqual({ kind: 'ssh', host: 'h' });
    for (const bad of ['x!git@host:a/b', 'git@host://a/b', 'git@ho_st:a/b', '@host:a/b', 'git@:a/b']) expect(parseRepositoryUrl(bad), bad).toBeUndefined();
    // a user name may hold a dash, but not lead with one: git would read the URL as an option
    expect(parseRepositoryUrl('-git@host:a/b')).toBeUndefined();
    expect(parseRepositoryUrl('git-user@host:a/b-')).toEqual({ kind: 'ssh', host: 'host' });
  });

  it('reads an ssh:// host in lower case, and refuses one without a host', () => {
    expect(parseRepositoryUrl('ssh://git@Example.ORG/acme/data.git')).toEqual({ kind: 'ssh', host: 'example.org' });
    expect(parseRepositoryUrl('ssh:///srv/repo')).toBeUndefined();
    expect(parseRepositoryUrl('ssh://example.org')).toBeUndefined();
    expect(parseRepositoryUrl('https://example.org/a')).toEqual({ kind: 'https', host: 'example.org' });
  });

  it('takes a local path whose names only contain dots', () => {
    expect(parseRepositoryUrl('/srv/..data/x..')).toEqual({ kind: 'local', host: undefined });
    expect(parseRepositoryUrl('/srv/git/..')).toBeUndefined();
  });

  it('calls a remote URL git when it ends in .git (trailing slashes aside) or is on a git host', () => {
    expect(isRemoteGitUrl('https://example.org/acme/data.git/')).toBe(true);
    expect(isRemoteGitUrl('https://example.org/acme/data.git//')).toBe(true);
    expect(isRemoteGitUrl('  https://example.org/acme/data.git  ')).toBe(true);
    expect(isRemoteGitUrl('git@example.org:acme/data.git')).toBe(true);
    expect(isRemoteGitUrl('git@gitlab.com:acme/data')).toBe(true);
    expect(isRemoteGitUrl('https://github.com/acme/data')).toBe(true);
    expect(isRemoteGitUrl('git@example.org:acme/data')).toBe(false);
    expect(isRemoteGitUrl('https://github.com.example.org/acme/data')).toBe(false);
    expect(isRemoteGitUrl('https://example.org/acme/data.git/x')).toBe(false);
    expect(isRemoteGitUrl('http://example.org/acme/data.git')).toBe(false);
    expect(isRemoteGitUrl(null)).toBe(false);
    expect(isRemoteGitUrl(undefined)).toBe(false);
    expect(isRemoteGitUrl('')).toBe(false);
  });

  it('offers the key for git@ URLs only, and the installation for GitHub in either form', () => {
    expect(allowsSshKey('  git@example.org:a/b')).toBe(true);
    expect(allowsSshKey('GIT@example.org:a/b')).toBe(false);
    expect(allowsSshKey('ssh://git@example.org/a/b')).toBe(false);
    expect(allowsSshKey(null)).toBe(false);
    expect(allowsSshKey(undefined)).toBe(false);
    expect(allowsGithubInstallation('git@github.com:a/b.git')).toBe(true);
    expect(allowsGithubInstallation('ssh://git@GitHub.com/a/b.git')).toBe(true);
    expect(allowsGithubInstallation('https://github.com.example.org/a/b')).toBe(false);
    expect(allowsGithubInstallation('')).toBe(false);
    expect(allowsGithubInstallation(undefined)).toBe(false);
  });
});

describe('branch names, rule by rule', () => {
  it('takes 200 characters and refuses 201', () => {
    expect(isBranchName('b'.repeat(200))).toBe(true);
    expect(isBranchName('b'.repeat(201))).toBe(false);
  });

  it('takes every allowed character, and refuses any other anywhere in the name', () => {
    expect(isBranchName('Feature_1.2/fix-3')).toBe(true);
    expect(isBranchName('AZaz09')).toBe(true);
    for (const bad of [' main', 'main ', 'ma in', '~main', 'main~1', 'a^b', 'a:b', 'a?b', 'a*b', 'a[b', 'a\\b', 'é']) expect(isBranchName(bad), bad).toBe(false);
  });

  it('refuses the edges git refuses and takes the same characters inside', () => {
    for (const bad of ['-x', '/a', 'a/', 'a.', 'a.lock', 'a/b.lock', 'a.lock/b', 'release/x.lock/1', '..', 'a/..', 'a..b', '.a', 'a/.b', 'a//b']) expect(isBranchName(bad), bad).toBe(false);
    for (const good of ['x-', 'a-b', 'a/b', 'a.b', 'a.lockx', 'a.lockx/b', 'lock/b', 'a/b.c']) expect(isBranchName(good), good).toBe(true);
  });
});
