import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gitHostsOf } from './definitions';
import { installEgressOf } from './job';

// The install step's network (issue 37: a plugin can come from the index, a git URL or a path).

describe('gitHostsOf', () => {
  it("reads pip's VCS form, with or without a user, once per host; a package or a path names none", () => {
    expect(gitHostsOf('git+https://github.com/MeltanoLabs/tap-github.git')).toEqual(['github.com']);
    expect(gitHostsOf('git+ssh://git@GitLab.com/a/b.git@v1 git+https://github.com/x/y.git git+https://github.com/x/z.git')).toEqual(['gitlab.com', 'github.com']);
    expect(gitHostsOf('git+https://user:token@example.org:8443/r.git#egg=r')).toEqual(['example.org']);
    expect(gitHostsOf('meltanolabs-target-postgres')).toEqual([]);
    expect(gitHostsOf('./tap-counter')).toEqual([]);
    expect(gitHostsOf('dbt-core~=1.10.0 dbt-postgres~=1.9.0')).toEqual([]);
    expect(gitHostsOf(null)).toEqual([]);
  });

  it('never throws and never returns a host with a path, port or user in it', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        for (const host of gitHostsOf(text)) expect(host).toMatch(/^[^/:@?#\s]+$/);
      }),
    );
  });
});

describe('installEgressOf', () => {
  it('is the index alone without git plugins; with them, the public internet besides, never their hosts routed past the policy', () => {
    expect(installEgressOf(['pypi.org', 'files.pythonhosted.org'], 'the package index pypi.org', [])).toEqual({ allowHosts: ['pypi.org', 'files.pythonhosted.org'], exclusive: true, label: 'the package index pypi.org, and nothing else' });
    const git = installEgressOf(['pypi.org'], 'the package index pypi.org', ['github.com', 'github.com', '10.0.0.5']);
    expect(git.exclusive).toBe(false);
    expect(git.allowHosts).toEqual(['pypi.org']);
    expect(git.label).toBe('the package index pypi.org, and the public internet for the git repositories its plugins install from (github.com, 10.0.0.5)');
  });
});
