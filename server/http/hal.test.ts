import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pagedCollection, totalOf } from './hal';

describe('pagedCollection', () => {
  it('links first, prev, self, next and last of the page, each with page and size in the same order', () => {
    const body = pagedCollection('things', ['a'], { page: 1, size: 2, sort: undefined }, 7, 'https://x/api/things?sort=name,asc');
    expect(body._links).toEqual({
      first: { href: 'https://x/api/things?sort=name%2Casc&page=0&size=2' },
      prev: { href: 'https://x/api/things?sort=name%2Casc&page=0&size=2' },
      self: { href: 'https://x/api/things?sort=name%2Casc&page=1&size=2' },
      next: { href: 'https://x/api/things?sort=name%2Casc&page=2&size=2' },
      last: { href: 'https://x/api/things?sort=name%2Casc&page=3&size=2' },
    });
    expect(body.page).toEqual({ size: 2, totalElements: 7, totalPages: 4, number: 1 });
  });

  it('keeps the parameters where the request had them, and offers prev/next only inside the pages', () => {
    fc.assert(
      fc.property(fc.nat(20), fc.integer({ min: 1, max: 10 }), fc.nat(200), (page, size, total) => {
        const { _links: links } = pagedCollection('things', [], { page, size, sort: undefined }, total, `https://x/api/things?size=${size}&page=${page}`);
        const last = Math.max(Math.ceil(total / size) - 1, 0);
        expect(links.self?.href).toBe(`https://x/api/things?size=${size}&page=${page}`);
        expect(links.last?.href).toBe(`https://x/api/things?size=${size}&page=${last}`);
        expect('next' in links).toBe(page < last);
        expect('prev' in links).toBe(page > 0);
      }),
    );
  });
});

describe('totalOf', () => {
  it('skips the count for a first page that is not full', async () => {
    expect(await totalOf({ page: 0, size: 10, sort: undefined }, 3, () => Promise.reject(new Error('counted')))).toBe(3);
    expect(await totalOf({ page: 1, size: 10, sort: undefined }, 0, () => Promise.resolve(12))).toBe(12);
  });
});

describe('paging links', () => {
  // what the hrefs were built with before: URLSearchParams.set on the parsed URL, per link
  const reference = (selfUrl: string, page: number, size: number) => {
    const url = new URL(selfUrl);
    url.searchParams.set('page', String(page));
    url.searchParams.set('size', String(size));
    return url.toString();
  };
  const name = fc.oneof(fc.constantFrom('page', 'size', 'sort', 'q', 'a b', '&', '=', '%', 'é'), fc.string({ maxLength: 6 }));
  const value = fc.oneof(fc.constantFrom('1', 'name,asc', '', '%zz', '+', '#', '?', 'x y'), fc.string({ maxLength: 8 }));
  const encode = (text: string, raw: boolean) => (raw ? text : encodeURIComponent(text));
  const query = fc.array(fc.tuple(name, value, fc.boolean()), { maxLength: 6 }).map((pairs) => pairs.map(([k, v, raw]) => `${encode(k, raw)}=${encode(v, raw)}`).join('&'));

  // URLs that look plain (the text-only path of pageHrefs) and ones that only nearly do: origins
  // that parsing rewrites (case, default port, IPv4 shorthand, credentials), dot segments, no path
  const origin = fc.constantFrom('http://127.0.0.1:4555', 'https://x', 'https://X', 'http://x:80', 'https://x:443', 'http://127.1:3000', 'http://u:p@x', 'https://x.example.', 'http://[::1]:3000', 'http://x:03000');
  const segment = fc.oneof(fc.constantFrom('.', '..', '', 'api', 'feed', '.hidden', 'a~b', 'x.y', 'A-Z_9'), fc.stringMatching(/^[A-Za-z0-9_~.-]{0,6}$/));
  const plainish = fc.tuple(origin, fc.array(segment, { maxLength: 5 })).map(([o, segments]) => `${o}${segments.map((s) => `/${s}`).join('')}`);
  const pagingOnly = fc
    .array(fc.tuple(fc.constantFrom('page', 'size'), fc.stringMatching(/^\d{0,3}$/)), { maxLength: 4 })
    .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));

  it('put page and size where URLSearchParams.set puts them, and keep the rest of the query as it serialises it', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom('https://x/api/things', 'http://127.0.0.1:4555/api/w/a%20b', 'https://x/base/api/t'), plainish), fc.oneof(query, pagingOnly), fc.nat(50), fc.integer({ min: 1, max: 100 }), (path, q, page, size) => {
        const selfUrl = q ? `${path}?${q}` : path;
        const { _links: links } = pagedCollection('things', [], { page, size, sort: undefined }, 10_000, selfUrl);
        expect(links.self?.href).toBe(reference(selfUrl, page, size));
        expect(links.first?.href).toBe(reference(selfUrl, 0, size));
      }),
      { numRuns: 3_000 },
    );
  });
});
