import { describe, expect, it } from 'vitest';
import type { Workspace } from './resources';
import { DEFAULT_SNACKBAR_MS, fieldsOf, parseDomains, repositoryFieldsEnabled, saveBody, showDomains, type WorkspaceFormFields } from './workspaceForm';

// The workspace form's fields, their texts and the body a save sends (spec 001 §5, §7), checked by hand.

const EMPTY: WorkspaceFormFields = {
  name: '',
  domains: '',
  imageUrl: null,
  defaultEnvironment: '',
  repositoryUrl: '',
  repositoryBranch: '',
  sshPrivateKey: '',
  githubInstallationId: '',
  appProperties: [],
};

describe('workspace form, checked by hand', () => {
  it('reads typed domains with or without @, split by commas, semicolons or spaces, each once', () => {
    expect(parseDomains('@a.com, b.org;@@c.net  a.com\n d.io')).toEqual(['a.com', 'b.org', 'c.net', 'd.io']);
    expect(parseDomains(' , ; ')).toEqual([]);
    expect(parseDomains('')).toEqual([]);
  });

  it('shows stored domains with one @ each', () => {
    expect(showDomains(['a.com', '@@b.org'])).toBe('@a.com, @b.org');
    expect(showDomains(null)).toBe('');
    expect(showDomains(undefined)).toBe('');
  });

  it('fills the fields from a workspace, the SSH key never; blank fields without one', () => {
    const workspace = {
      id: 'w1',
      name: 'Acme',
      domains: ['acme.com'],
      imageUrl: 'https://img/acme.png',
      defaultEnvironment: 'prod',
      repositoryUrl: 'https://github.com/acme/data',
      repositoryBranch: 'dev',
      githubInstallationId: '42',
      appProperties: { A: '1', B: '2' },
    } as unknown as Workspace;
    expect(fieldsOf(workspace)).toEqual({
      name: 'Acme',
      domains: '@acme.com',
      imageUrl: 'https://img/acme.png',
      defaultEnvironment: 'prod',
      repositoryUrl: 'https://github.com/acme/data',
      repositoryBranch: 'dev',
      sshPrivateKey: '',
      githubInstallationId: '42',
      appProperties: [
        { key: 'A', value: '1' },
        { key: 'B', value: '2' },
      ],
    });
    expect(fieldsOf(null)).toEqual(EMPTY);
    expect(fieldsOf({ id: 'w2' } as unknown as Workspace)).toEqual(EMPTY);
  });

  it('enables the branch for remote git URLs, the SSH key for git@ URLs, the installation for GitHub', () => {
    expect(repositoryFieldsEnabled('git@github.com:acme/data.git')).toEqual({ branch: true, sshKey: true, githubInstallation: true });
    expect(repositoryFieldsEnabled('https://github.com/acme/data')).toEqual({ branch: true, sshKey: false, githubInstallation: true });
    expect(repositoryFieldsEnabled('https://example.org/acme/data.git')).toEqual({ branch: true, sshKey: false, githubInstallation: false });
    expect(repositoryFieldsEnabled('/srv/repos/data')).toEqual({ branch: false, sshKey: false, githubInstallation: false });
    expect(repositoryFieldsEnabled('')).toEqual({ branch: false, sshKey: false, githubInstallation: false });
  });

  it('an empty form saves nulls and empty lists', () => {
    expect(saveBody(EMPTY)).toEqual({ name: '', domains: [], imageUrl: null, defaultEnvironment: null, repositoryUrl: null, repositoryBranch: null, githubInstallationId: null, appProperties: {} });
  });

  it('saves every field trimmed; a git@ URL with its typed key, its branch (main when blank) and its installation', () => {
    const fields: WorkspaceFormFields = {
      name: '  Acme  ',
      domains: '@acme.com, acme.co.uk',
      imageUrl: 'https://img/acme.png',
      defaultEnvironment: '  prod ',
      repositoryUrl: '  git@github.com:acme/data.git ',
      repositoryBranch: '   ',
      sshPrivateKey: '-----BEGIN KEY-----\nabc\n',
      githubInstallationId: ' 42 ',
      appProperties: [
        { key: ' A ', value: '1' },
        { key: '  ', value: 'dropped' },
        { key: 'A', value: 'last' },
        { key: 'B', value: ' kept as typed ' },
      ],
    };
    expect(saveBody(fields)).toEqual({
      name: 'Acme',
      domains: ['acme.com', 'acme.co.uk'],
      imageUrl: 'https://img/acme.png',
      defaultEnvironment: 'prod',
      repositoryUrl: 'git@github.com:acme/data.git',
      repositoryBranch: 'main',
      sshPrivateKey: '-----BEGIN KEY-----\nabc\n',
      githubInstallationId: '42',
      appProperties: { A: 'last', B: ' kept as typed ' },
    });
  });

  it('leaves out what the URL does not take: the key of an https URL, the branch of a local path, a blank key or installation', () => {
    const https = saveBody({ ...EMPTY, repositoryUrl: 'https://gitlab.com/acme/data', repositoryBranch: ' dev ', sshPrivateKey: 'key', githubInstallationId: '42' });
    expect(https).toEqual({ name: '', domains: [], imageUrl: null, defaultEnvironment: null, repositoryUrl: 'https://gitlab.com/acme/data', repositoryBranch: 'dev', githubInstallationId: null, appProperties: {} });
    const local = saveBody({ ...EMPTY, repositoryUrl: '/srv/repos/data', repositoryBranch: 'dev' });
    expect(local).toMatchObject({ repositoryUrl: '/srv/repos/data', repositoryBranch: null });
    const blank = saveBody({ ...EMPTY, repositoryUrl: 'git@github.com:acme/data.git', sshPrivateKey: '  ', githubInstallationId: '  ' });
    expect(blank).toEqual({ name: '', domains: [], imageUrl: null, defaultEnvironment: null, repositoryUrl: 'git@github.com:acme/data.git', repositoryBranch: 'main', githubInstallationId: null, appProperties: {} });
    expect(DEFAULT_SNACKBAR_MS).toBe(6000);
  });

  it('takes off leading @ only, and saves a blank environment as none', () => {
    expect(parseDomains('a@b.com')).toEqual(['a@b.com']);
    expect(showDomains(['a@b.com'])).toBe('@a@b.com');
    expect(saveBody({ ...EMPTY, defaultEnvironment: '   ' }).defaultEnvironment).toBeNull();
  });
});
