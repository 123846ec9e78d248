import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString } from '../../src/domain/hostile.fixture';
import { allowedMethodsOf, patternToRegExp } from './allowedMethods';

const ROUTES = [
  { method: 'GET', url: '/api/workspaces/:id' },
  { method: 'PUT', url: '/api/workspaces/:id' },
  { method: 'DELETE', url: '/api/workspaces/:id' },
  { method: 'PUT', url: '/api/datasets/:id/like' },
  { method: 'DELETE', url: '/api/datasets/:id/like' },
  { method: 'GET', url: '/api/workspaces/:id/datasets/*' },
];

describe('allowedMethodsOf', () => {
  const allowed = allowedMethodsOf(ROUTES);

  it('lists every method served at a path, HEAD wherever GET is', () => {
    expect(allowed('/api/workspaces/abc')).toEqual(['DELETE', 'GET', 'HEAD', 'PUT']);
    expect(allowed('/api/datasets/abc/like')).toEqual(['DELETE', 'PUT']);
    expect(allowed('/api/datasets/abc/like/')).toEqual(['DELETE', 'PUT']);
  });

  it('matches a wildcard over slashes and a parameter within one segment only', () => {
    expect(allowed('/api/workspaces/w/datasets/a/b/c')).toEqual(['GET', 'HEAD']);
    expect(allowed('/api/datasets/a/b/like')).toEqual([]);
  });

  it('is empty for a path no route serves', () => {
    expect(allowed('/api/nothing')).toEqual([]);
    expect(allowed('/api/workspaces')).toEqual([]);
  });

  it('treats regular-expression characters in literal segments as text', () => {
    expect(patternToRegExp('/api/a.b').test('/api/aXb')).toBe(false);
    expect(patternToRegExp('/api/a.b').test('/api/a.b')).toBe(true);
  });

  it('never throws on hostile paths, and only ever names methods of the table', () => {
    const known = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);
    fc.assert(
      fc.property(hostileString, (path) => {
        for (const method of allowed(path)) expect(known.has(method)).toBe(true);
      }),
    );
  });
});
