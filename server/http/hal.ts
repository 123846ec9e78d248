import { z } from 'zod';
import { badRequest, zodFieldErrors } from './errors';
import { JsonText, type JsonPieces } from './jsonText';

/** HAL building blocks. Relation names are the spec's exact strings; hrefs are absolute URLs. */
export type Link = { href: string; templated?: true };
export type Links = Record<string, Link>;

/**
 * HAL links from hrefs. An href with a `{` is a URI template (RFC 6570): every value we put in a
 * path or query is percent-encoded, so a brace can only be a template's, and HAL says so with
 * `templated: true` for clients that expand templates.
 */
export function links(entries: Record<string, string | false | null | undefined>): Links {
  const out: Links = {};
  for (const [rel, href] of Object.entries(entries)) {
    if (href) out[rel] = href.includes('{') ? { href, templated: true } : { href };
  }
  return out;
}

export interface Paging {
  page: number;
  size: number;
  sort: { field: string; direction: 'asc' | 'desc' } | undefined;
}

export const pagingSchema = z.object({
  page: z.coerce.number({ message: 'must be a number' }).int().min(0).max(1_000_000).default(0),
  size: z.coerce.number({ message: 'must be a number' }).int().min(1).max(10_000).default(20),
  sort: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_.]*(,(asc|desc|ASC|DESC))?$/, 'must be field,asc or field,desc')
    .optional(),
});

/** Spring-style `page`, `size`, `sort=field,asc|desc`; a sort field outside `sortable` is a 400. */
export function parsePaging(query: unknown, options: { defaultSize?: number; sortable?: readonly string[] } = {}): Paging {
  const raw = (query ?? {}) as Record<string, unknown>;
  const parsed = pagingSchema.safeParse({ page: raw.page, size: raw.size ?? options.defaultSize, sort: raw.sort });
  if (!parsed.success) throw badRequest('Invalid paging parameters', zodFieldErrors(parsed.error, 'pageable'));
  const { page, size, sort } = parsed.data;
  if (!sort) return { page, size, sort: undefined };
  const [field = '', dir = 'asc'] = sort.split(',');
  if (options.sortable && !options.sortable.includes(field)) {
    throw badRequest('Invalid paging parameters', [{ field: 'sort', objectName: 'pageable', defaultMessage: `cannot sort by ${field}` }]);
  }
  return { page, size, sort: { field, direction: dir.toLowerCase() === 'desc' ? 'desc' : 'asc' } };
}

interface PageInfo {
  size: number;
  totalElements: number;
  totalPages: number;
  number: number;
}

/**
 * A paged HAL collection: `_embedded.{key}`, links first/prev/self/next/last, and `page`.
 * `selfUrl` is the absolute URL of the request; the paging links keep its other query parameters.
 */
export function pagedCollection<T>(key: string, items: T[], paging: Paging, totalElements: number, selfUrl: string, extraLinks: Links = {}) {
  const totalPages = Math.ceil(totalElements / paging.size);
  const at = pageHrefs(selfUrl, paging.size);
  const last = Math.max(totalPages - 1, 0);
  return {
    _embedded: { [key]: items },
    _links: {
      ...links({
        first: at(0),
        prev: paging.page > 0 ? at(Math.min(paging.page - 1, last)) : null,
        self: at(paging.page),
        next: paging.page < last ? at(paging.page + 1) : null,
        last: at(last),
      }),
      ...extraLinks,
    },
    page: { size: paging.size, totalElements, totalPages, number: paging.page } satisfies PageInfo,
  };
}

const PAGE_SLOT = Symbol('page');

/**
 * The href of each page of `selfUrl`: its query with `page` and `size` set as URLSearchParams.set
 * sets them (in the place of their first occurrence, others dropped, else appended), so every link
 * has the parameters in the same order as the request. A page's href is the URL's text with the
 * page number put in.
 */
function pageHrefs(selfUrl: string, size: number): (page: number) => string {
  return plainPageHrefs(selfUrl, size) ?? parsedPageHrefs(selfUrl, size);
}

// A URL that parsing leaves as it is: an http(s) origin, a path of unreserved characters (no dot
// segment), and a query of nothing but page and size numbers: most paged requests.
const PLAIN_URL = /^(https?:\/\/[^/?#]+)((?:\/[A-Za-z0-9_~.-]*)+)(?:\?((?:page|size)=\d*(?:&(?:page|size)=\d*)*))?$/;
const DOT_SEGMENT = /\/\.\.?(?=\/|$)/;
// the last origin found canonical: a server's own public URL, the same on every request
let canonicalOrigin: string | undefined;
const isCanonicalOrigin = (origin: string): boolean => {
  if (origin === canonicalOrigin) return true;
  if (!URL.canParse(origin) || new URL(origin).origin !== origin) return false;
  canonicalOrigin = origin;
  return true;
};

/** pageHrefs of a plain URL (PLAIN_URL) from its text alone (URL parsing showed in the list's profile); undefined for any other. */
function plainPageHrefs(selfUrl: string, size: number): ((page: number) => string) | undefined {
  const match = PLAIN_URL.exec(selfUrl);
  if (!match || DOT_SEGMENT.test(match[2]!) || !isCanonicalOrigin(match[1]!)) return undefined;
  const names = match[3]?.split('&').map((pair) => pair.slice(0, 4)) ?? [];
  const sizeAt = names.indexOf('size');
  const pageAt = names.indexOf('page');
  const base = `${match[1]}${match[2]}?`;
  const sized = `size=${size}`;
  return sizeAt >= 0 && (pageAt < 0 || sizeAt < pageAt) ? (number) => `${base}${sized}&page=${number}` : (number) => `${base}page=${number}&${sized}`;
}

/** pageHrefs of any URL: parsed, and its query serialised once. */
function parsedPageHrefs(selfUrl: string, size: number): (page: number) => string {
  const url = new URL(selfUrl);
  const parts: (string | typeof PAGE_SLOT)[] = [];
  let page = false;
  let sized = false;
  for (const [name, value] of url.searchParams) {
    if (name === 'page') {
      if (!page) parts.push(PAGE_SLOT);
      page = true;
    } else if (name === 'size') {
      if (!sized) parts.push(`size=${size}`);
      sized = true;
    } else parts.push(new URLSearchParams([[name, value]]).toString());
  }
  if (!page) parts.push(PAGE_SLOT);
  if (!sized) parts.push(`size=${size}`);
  url.search = '';
  // a fragment (even an empty one) stays after the query; '#' appears unescaped nowhere before it
  const href = url.href;
  const hashAt = href.indexOf('#');
  const fragmentAt = hashAt < 0 ? href.length : hashAt;
  const base = `${href.slice(0, fragmentAt)}?`;
  const fragment = href.slice(fragmentAt);
  return (number) => base + parts.map((part) => (part === PAGE_SLOT ? `page=${number}` : part)).join('&') + fragment;
}

/** pagedCollection of items already written as JSON text (JsonText), as JSON text. */
export function pagedCollectionText(key: string, items: readonly JsonPieces[], paging: Paging, totalElements: number, selfUrl: string): JsonText {
  const { _links, page } = pagedCollection(key, [], paging, totalElements, selfUrl);
  const list: JsonPieces[] = [];
  for (const item of items) list.push(list.length === 0 ? item : [',', item]);
  return new JsonText([`{"_embedded":{${JSON.stringify(key)}:[`, list, `]},"_links":${JSON.stringify(_links)},"page":${JSON.stringify(page)}}`]);
}

/** A first page that is not full already tells the total: the count query is skipped. */
export async function totalOf(paging: Paging, itemCount: number, count: () => Promise<number>): Promise<number> {
  if (paging.page === 0 && itemCount < paging.size) return itemCount;
  return count();
}
