import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { embeddedList, halResource, hasLink, linkHref, linksOf, linksSchema, pagedCollection, resolveHref } from './hal';
import { hostileString } from './hostile.fixture';

const single = { _links: { self: { href: '/api/workspaces/1' } } };
const array = { _links: { self: [{ href: '/api/workspaces/1' }, { href: '/api/workspaces/2' }] } };

describe('hasLink', () => {
  it('treats one link and an array of links alike', () => {
    expect(hasLink(single, 'self')).toBe(true);
    expect(hasLink(array, 'self')).toBe(true);
  });

  it('is false for a missing relation, an empty array, no _links and no resource', () => {
    expect(hasLink(single, 'update delete workspace')).toBe(false);
    expect(hasLink({ _links: { self: [] } }, 'self')).toBe(false);
    expect(hasLink({}, 'self')).toBe(false);
    expect(hasLink({ _links: null }, 'self')).toBe(false);
    expect(hasLink(null, 'self')).toBe(false);
    expect(hasLink(undefined, 'self')).toBe(false);
  });

  it('matches relation names with spaces exactly', () => {
    const workspace = { _links: { 'update delete workspace': { href: '/w/1' } } };
    expect(hasLink(workspace, 'update delete workspace')).toBe(true);
    expect(hasLink(workspace, 'update  delete workspace')).toBe(false);
    expect(hasLink(workspace, 'Update delete workspace')).toBe(false);
  });
});

describe('linkHref', () => {
  it('returns the href, the first one of an array', () => {
    expect(linkHref(single, 'self')).toBe('/api/workspaces/1');
    expect(linkHref(array, 'self')).toBe('/api/workspaces/1');
    expect(linkHref(single, 'jobs')).toBeUndefined();
  });

  it('resolves a relative href against an absolute base', () => {
    expect(linkHref({ _links: { jobs: { href: 'jobs' } } }, 'jobs', 'http://localhost:8080/api/workspaces/1/')).toBe(
      'http://localhost:8080/api/workspaces/1/jobs',
    );
    expect(linkHref(single, 'self', 'http://localhost:8080/api/')).toBe('http://localhost:8080/api/workspaces/1');
  });

  it('resolves against a root-relative base and keeps the result root-relative', () => {
    expect(linkHref({ _links: { jobs: { href: 'jobs?size=99' } } }, 'jobs', '/api/workspaces/1/')).toBe('/api/workspaces/1/jobs?size=99');
  });

  it('leaves an absolute href pointing where it points', () => {
    expect(linkHref({ _links: { x: { href: 'https://other.example/a' } } }, 'x', '/api/')).toBe('https://other.example/a');
  });

  it('keeps a URI template verbatim after the resolved part', () => {
    const templated = { _links: { search: { href: 'search{?q,page,size}', templated: true } } };
    expect(linkHref(templated, 'search', 'http://h/api/workspaces/1/')).toBe('http://h/api/workspaces/1/search{?q,page,size}');
  });

  it('returns the href unchanged without a base', () => {
    expect(linkHref({ _links: { a: { href: 'relative/x' } } }, 'a')).toBe('relative/x');
  });
});

describe('linksOf', () => {
  it('lists every link of a relation, one or many', () => {
    expect(linksOf(array, 'self')).toEqual([{ href: '/api/workspaces/1' }, { href: '/api/workspaces/2' }]);
    expect(linksOf(single, 'self')).toEqual([{ href: '/api/workspaces/1' }]);
    expect(linksOf(single, 'none')).toEqual([]);
  });

  it('skips entries without a text href', () => {
    const odd = { _links: { self: [{ href: 'a' }, { notHref: 1 }, null] } } as unknown as Parameters<typeof linksOf>[0];
    expect(linksOf(odd, 'self')).toEqual([{ href: 'a' }]);
  });
});

describe('halResource', () => {
  const schema = halResource({ id: z.string() });

  it('parses links and keeps unknown fields', () => {
    const parsed = schema.parse({ id: '1', extra: { a: 1 }, _links: { self: { href: '/x', title: 'X', name: 'n' } }, _embedded: { foo: [] } });
    expect(parsed.extra).toEqual({ a: 1 });
    expect(linkHref(parsed, 'self')).toBe('/x');
    expect(parsed._embedded).toEqual({ foo: [] });
  });

  it('accepts a resource without links', () => {
    expect(schema.parse({ id: '1' })).toEqual({ id: '1' });
  });

  it('rejects a link without href', () => {
    expect(schema.safeParse({ id: '1', _links: { self: { title: 'x' } } }).success).toBe(false);
    expect(linksSchema.safeParse({ self: [{ href: 1 }] }).success).toBe(false);
  });
});

describe('pagedCollection and embeddedList', () => {
  const schema = pagedCollection('items', z.object({ id: z.string() }));

  it('reads the embedded list', () => {
    const page = schema.parse({
      _embedded: { items: [{ id: 'a' }, { id: 'b' }] },
      _links: { self: { href: '/items?page=0' } },
      page: { size: 20, totalElements: 2, totalPages: 1, number: 0 },
    });
    expect(embeddedList(page, 'items').map((item) => item.id)).toEqual(['a', 'b']);
    expect(page.page?.totalElements).toBe(2);
  });

  it('treats a missing _embedded (Spring, empty page) as an empty list', () => {
    const page = schema.parse({ page: { size: 20, totalElements: 0, totalPages: 0, number: 0 } });
    expect(embeddedList(page, 'items')).toEqual([]);
    expect(embeddedList(schema.parse({ _embedded: {} }), 'items')).toEqual([]);
    expect(embeddedList(null, 'items')).toEqual([]);
  });

  it('rejects a bad item and a bad page', () => {
    expect(schema.safeParse({ _embedded: { items: [{ id: 1 }] } }).success).toBe(false);
    expect(schema.safeParse({ page: { size: -1, totalElements: 0, totalPages: 0, number: 0 } }).success).toBe(false);
    expect(schema.safeParse({ page: { size: 1.5, totalElements: 0, totalPages: 0, number: 0 } }).success).toBe(false);
  });

  it('returns a copy, so callers cannot change the parsed page', () => {
    const page = schema.parse({ _embedded: { items: [{ id: 'a' }] } });
    embeddedList(page, 'items').pop();
    expect(embeddedList(page, 'items')).toHaveLength(1);
  });
});

describe('properties', () => {
  const link = fc.record({ href: hostileString, templated: fc.option(fc.boolean(), { nil: undefined }) });

  it('a single link and a one-element array are the same', () => {
    fc.assert(
      fc.property(link, hostileString, fc.option(hostileString, { nil: undefined }), (l, rel, base) => {
        const one = { _links: { [rel]: l } };
        const many = { _links: { [rel]: [l] } };
        expect(hasLink(one, rel)).toBe(hasLink(many, rel));
        expect(linkHref(one, rel, base)).toBe(linkHref(many, rel, base));
        expect(linksOf(one, rel)).toEqual(linksOf(many, rel));
      }),
    );
  });

  it('never throws on hostile hrefs and bases, and resolves to a string', () => {
    fc.assert(
      fc.property(hostileString, hostileString, fc.boolean(), (href, base, templated) => {
        expect(typeof resolveHref(href, base, templated)).toBe('string');
      }),
    );
  });

  it('hasLink agrees with linksOf, and linkHref is the first of linksOf', () => {
    fc.assert(
      fc.property(fc.dictionary(hostileString, fc.oneof(link, fc.array(link, { maxLength: 3 }))), hostileString, (links, rel) => {
        const resource = { _links: links };
        expect(hasLink(resource, rel)).toBe(linksOf(resource, rel).length > 0);
        expect(linkHref(resource, rel)).toBe(linksOf(resource, rel)[0]?.href);
      }),
    );
  });
});

describe('embeddedList and resolveHref, case by case', () => {
  it('is empty for an _embedded that is not an object, a list that is not an array, or a key it only inherits', () => {
    expect(embeddedList({ _embedded: null }, 'items')).toEqual([]);
    expect(embeddedList({ _embedded: 'items' }, 'items')).toEqual([]);
    expect(embeddedList({ _embedded: { items: 'a' } }, 'items')).toEqual([]);
    expect(embeddedList({ _embedded: { items: { 0: 'a', length: 1 } } }, 'items')).toEqual([]);
    expect(embeddedList({ _embedded: Object.create({ items: ['inherited'] }) as unknown }, 'items')).toEqual([]);
    expect(embeddedList({ _embedded: { items: ['a', 'b'] } }, 'items')).toEqual(['a', 'b']);
    expect(embeddedList({ _embedded: ['x'] }, '0')).toEqual([]);
  });

  it('returns the href as it is for an empty base', () => {
    expect(resolveHref('a/b', '')).toBe('a/b');
    expect(resolveHref('a/b')).toBe('a/b');
  });

  it('keeps braces only in a templated href, even one that starts with its template', () => {
    expect(resolveHref('x{y}', 'http://h/a/')).toBe('http://h/a/x%7By%7D');
    expect(resolveHref('x{y}', 'http://h/a/', false)).toBe('http://h/a/x%7By%7D');
    expect(resolveHref('{?page}', 'http://h/a/', true)).toBe('http://h/a/{?page}');
    expect(resolveHref('{?page}', '/api/a/', true)).toBe('/api/a/{?page}');
    // the fixed part before the template is resolved as any href is
    expect(resolveHref('/api/jobs{?page,size}', 'http://h/api/w/1/', true)).toBe('http://h/api/jobs{?page,size}');
    expect(resolveHref('../jobs{?page}', '/api/w/1/', true)).toBe('/api/w/jobs{?page}');
    expect(linkHref({ _links: { x: { href: 'x{y}', templated: false } } }, 'x', 'http://h/')).toBe('http://h/x%7By%7D');
  });

  it('returns the href as it is when the base cannot be read', () => {
    expect(resolveHref('a/b', 'http://[')).toBe('a/b');
  });

  it('keeps the fragment of a root-relative result', () => {
    expect(resolveHref('jobs?page=2#top', '/api/w/1/')).toBe('/api/w/1/jobs?page=2#top');
    expect(resolveHref('../x#y', '/api/w/1/')).toBe('/api/w/x#y');
  });
});
