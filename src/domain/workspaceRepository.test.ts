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
