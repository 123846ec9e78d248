import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostilePath, hostileString, wellFormed } from './hostile.fixture';
import {
  datasetPathPart,
  datasetRedirect,
  hasUnfinishedProfileJob,
  isAllowedWithoutWorkspace,
  labHomePath,
  landingRoute,
  rootRoute,
  ZERO_WORKSPACE_ROUTES,
} from './landing';
import { JOB_STATUSES } from './resources';
import { pathTo, routePattern, workspaceIdOf } from './routes';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const admin = { id: 'w1', _links: { 'update delete workspace': { href: '/w/w1' } } };
const reader = { id: 'w1', _links: { self: { href: '/w/w1' } } };

describe('landingRoute', () => {
  it('1. admin with an unfinished PROFILE_ job goes to the setup tasks', () => {
    const jobs = [
      { type: 'PIPELINE_RUN', status: 'RUNNING' },
      { type: 'PROFILE_INIT', status: 'QUEUED' },
    ];
    expect(landingRoute({ workspace: admin, jobs })).toBe('/setup/tasks/w1');
  });

  it('every non-COMPLETE status of a PROFILE_ job counts as unfinished', () => {
    for (const status of JOB_STATUSES.filter((s) => s !== 'COMPLETE')) {
      expect(landingRoute({ workspace: admin, jobs: [{ type: 'PROFILE_X', status }] })).toBe('/setup/tasks/w1');
    }
  });

  it('2. admin with finished or no PROFILE_ jobs goes to the Lab', () => {
    expect(landingRoute({ workspace: admin, jobs: [] })).toBe('/lab');
    expect(landingRoute({ workspace: admin, jobs: null })).toBe('/lab');
    expect(landingRoute({ workspace: admin, jobs: [{ type: 'PROFILE_INIT', status: 'COMPLETE' }, { type: 'PIPELINE_RUN', status: 'ERROR' }] })).toBe('/lab');
    expect(landingRoute({ workspace: admin, jobs: [{ type: 'profile_init', status: 'ERROR' }] })).toBe('/lab');
  });

  it('3. others go to the home page, default feed', () => {
    expect(landingRoute({ workspace: reader, jobs: [{ type: 'PROFILE_INIT', status: 'ERROR' }] })).toBe('/l/w1/feed');
    expect(landingRoute({ workspace: { ...reader, appProperties: { HOME_PAGE: 'news' } }, jobs: [] })).toBe('/l/w1/news');
    expect(landingRoute({ workspace: { ...reader, appProperties: { HOME_PAGE: '' } }, jobs: [] })).toBe('/l/w1/feed');
  });

  it('always lands on one of the three kinds of route, inside the workspace', () => {
    fc.assert(
      fc.property(
        hostileString.filter((id) => id !== '' && id !== '.' && id !== '..'),
        fc.boolean(),
        fc.array(fc.record({ type: hostileString, status: fc.constantFrom(...JOB_STATUSES) }), { maxLength: 4 }),
        fc.option(hostileString, { nil: undefined }),
        (id, isAdmin, jobs, home) => {
          const workspace = {
            id,
            _links: isAdmin ? { 'update delete workspace': { href: '/x' } } : {},
            appProperties: home === undefined ? {} : { HOME_PAGE: home },
          };
          const route = landingRoute({ workspace, jobs });
          if (isAdmin) {
            expect(route === '/lab' || route === pathTo('setup', { step: 'tasks', workspaceId: id })).toBe(true);
            expect(route === '/lab').toBe(!hasUnfinishedProfileJob(jobs));
          } else {
            expect(route).toMatch(new RegExp(`^/l/${escapeRegExp(encodeURIComponent(wellFormed(id)))}(?:[/?#]|$)`));
            expect(workspaceIdOf(route)).toBe(wellFormed(id));
          }
        },
      ),
    );
  });
});

describe('labHomePath', () => {
  it("is the workspace's pipelines list, where '/lab' redirects", () => {
    expect(labHomePath('w 1')).toBe('/lab/w%201/pipelines');
  });
});

describe('rootRoute', () => {
  it('sends a user without workspaces to onboarding', () => {
    expect(rootRoute({ workspaces: [], defaultWorkspaceId: 'w1' })).toEqual({ kind: 'setup', path: '/setup/w/new' });
  });

  it("prefers the profile's default workspace when still in the list", () => {
    const workspaces = [{ id: 'a' }, { id: 'b' }];
    expect(rootRoute({ workspaces, defaultWorkspaceId: 'b' })).toEqual({ kind: 'workspace', workspaceId: 'b' });
    expect(rootRoute({ workspaces, defaultWorkspaceId: 'gone' })).toEqual({ kind: 'workspace', workspaceId: 'a' });
    expect(rootRoute({ workspaces, defaultWorkspaceId: null })).toEqual({ kind: 'workspace', workspaceId: 'a' });
    expect(rootRoute({ workspaces })).toEqual({ kind: 'workspace', workspaceId: 'a' });
  });

  it('always picks a listed workspace', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ id: fc.string() }), { minLength: 1, maxLength: 6 }), fc.option(fc.string(), { nil: undefined }), (workspaces, preferred) => {
        const route = rootRoute({ workspaces, defaultWorkspaceId: preferred });
        expect(route.kind).toBe('workspace');
        if (route.kind === 'workspace') {
          expect(workspaces.map((w) => w.id)).toContain(route.workspaceId);
          if (workspaces.some((w) => w.id === preferred)) expect(route.workspaceId).toBe(preferred);
        }
      }),
    );
  });
});

describe('isAllowedWithoutWorkspace', () => {
  it('lists the spec routes', () => {
    expect(ZERO_WORKSPACE_ROUTES.map(routePattern)).toEqual([
      '/debug', '/debug/profile', '/logout', '/signup', '/notverified', '/api-key', '/p/profile', '/change-password', '/setup/:step/:workspaceId', '/setup/w/new',
    ]);
  });

  it.each([
    '/debug', '/debug/', '/debug/profile', '/logout', '/logout/', '/signup', '/notverified', '/api-key', '/p/profile',
    '/change-password', '/setup/w/new', '/setup/imports/abc', '/setup/tasks/abc', '/setup/w/abc/', '/logout?returnTo=x', '/api-key#top', '/LOGOUT',
  ])('allows %s', (path) => {
    expect(isAllowedWithoutWorkspace(path)).toBe(true);
  });

  it.each([
    '', '/', '//', '/l/', '/l//x', '/l/abc/feed', '/lab', '/lab/abc', '/w/abc', '/p', '/p/profile/x', '/profile', '/setup', '/setup/w',
    '/setup/other/abc', '/setup/w/abc/extra', '/debug/x/y', '/debug/../lab', '/%2e%2e/lab', '/logout/x', '/debugger', '/api-keys', '/dataset/x', '../',
    '/x/../../l/abc',
  ])('refuses %s', (path) => {
    expect(isAllowedWithoutWorkspace(path)).toBe(false);
  });

  it('never throws, and a path under /l or /lab is never allowed', () => {
    fc.assert(
      fc.property(hostilePath, (path) => {
        expect(typeof isAllowedWithoutWorkspace(path)).toBe('boolean');
      }),
    );
    fc.assert(
      fc.property(fc.constantFrom('/l/', '/lab/', '/w/'), fc.string(), (root, rest) => {
        const path = root + rest.replace(/[./%?#]/g, '');
        expect(isAllowedWithoutWorkspace(path)).toBe(false);
      }),
    );
  });
});

describe('datasetRedirect', () => {
  it('keeps the slashes of an alias', () => {
    expect(datasetRedirect('sales/by-month', 'w1')).toBe('/l/w1/dataset/sales/by-month');
    expect(datasetRedirect('0b8a2c9e-1', 'w1')).toBe('/l/w1/dataset/0b8a2c9e-1');
  });

  it('encodes each part, and drops parts a URL cannot carry', () => {
    expect(datasetRedirect('a b/c?d#e%', 'w 1')).toBe('/l/w%201/dataset/a%20b/c%3Fd%23e%25');
    expect(datasetRedirect('/a//b/', 'w1')).toBe('/l/w1/dataset/a/b');
    expect(datasetRedirect('../../lab/x', 'w1')).toBe('/l/w1/dataset/lab/x');
  });

  it('never leaves the dataset route of the workspace', () => {
    fc.assert(
      fc.property(hostileString, hostileString.filter((id) => id !== '' && id !== '.' && id !== '..'), (alias, id) => {
        const path = datasetRedirect(alias, id);
        const prefix = `/l/${encodeURIComponent(wellFormed(id))}/dataset/`;
        expect(path.startsWith(prefix)).toBe(true);
        expect(new URL(path, 'http://h').pathname.startsWith(prefix)).toBe(true);
        expect(path).not.toMatch(/[?#]/);
      }),
    );
  });
});

describe('datasetPathPart', () => {
  it('keeps the slashes of an alias and encodes each part', () => {
    expect(datasetPathPart('sales/by-month')).toBe('sales/by-month');
    expect(datasetPathPart('a b/c?d#e%')).toBe('a%20b/c%3Fd%23e%25');
    expect(datasetPathPart('0b8a2c9e-1')).toBe('0b8a2c9e-1');
  });

  it('drops the empty and dot parts a URL cannot carry, and a lone surrogate becomes U+FFFD', () => {
    expect(datasetPathPart('/a//b/')).toBe('a/b');
    expect(datasetPathPart('../../lab/./x')).toBe('lab/x');
    expect(datasetPathPart('')).toBe('');
    expect(datasetPathPart('x\ud800')).toBe('x%EF%BF%BD');
  });
});
