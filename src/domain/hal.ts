import { z } from 'zod';

// HAL as the server speaks it. Like ketting, a relation holding one link and one holding an array
// of links are treated alike, and relative hrefs resolve against a base URI.

const linkSchema = z.looseObject({
  href: z.string(),
  templated: z.boolean().optional(),
  title: z.string().optional(),
});

export const linksSchema = z.record(z.string(), z.union([linkSchema, z.array(linkSchema)]));

const embeddedSchema = z.record(z.string(), z.unknown());

/** A resource schema: `shape` plus optional `_links` and `_embedded`; unknown fields survive. */
export function halResource<S extends z.core.$ZodLooseShape>(shape: S) {
  return z
    .looseObject({ _links: linksSchema.optional(), _embedded: embeddedSchema.optional() })
    .extend(shape);
}

export const pageSchema = z.looseObject({
  size: z.int().min(0),
  totalElements: z.int().min(0),
  totalPages: z.int().min(0),
  number: z.int().min(0),
});
export type Page = z.infer<typeof pageSchema>;

/**
 * A Spring HAL page. Spring leaves `_embedded` out when the page is empty, so both the envelope
 * and the list are optional; read the items with `embeddedList`.
 */
export function pagedCollection<K extends string, T extends z.ZodType>(embeddedKey: K, itemSchema: T) {
  const embeddedShape = { [embeddedKey]: z.array(itemSchema).nullish() } as {
    [P in K]: z.ZodOptional<z.ZodNullable<z.ZodArray<T>>>;
  };
  return z.looseObject({
    _embedded: z.looseObject(embeddedShape).nullish(),
    _links: linksSchema.optional(),
    page: pageSchema.optional(),
  });
}

type EmbeddedOf<R> = R extends { readonly _embedded?: infer E } ? NonNullable<E> : never;
/** The item type of `_embedded[K]`, read from the resource's (usually zod-inferred) type. */
type EmbeddedItem<R, K extends string> =
  EmbeddedOf<R> extends infer E ? (K extends keyof E ? (NonNullable<E[K]> extends readonly (infer T)[] ? T : unknown) : unknown) : unknown;

/** The embedded list under `key`, or [] when the server omitted it. */
export function embeddedList<R extends { readonly _embedded?: unknown } | null | undefined, K extends string>(
  resource: R,
  key: K,
): EmbeddedItem<NonNullable<R>, K>[] {
  const embedded: unknown = resource?._embedded;
  if (typeof embedded !== 'object' || embedded === null || !Object.hasOwn(embedded, key)) return [];
  const list: unknown = (embedded as Record<string, unknown>)[key];
  return Array.isArray(list) ? (list.slice() as EmbeddedItem<NonNullable<R>, K>[]) : [];
}

type LinkLike = { readonly href: string; readonly templated?: boolean | undefined };
export type LinksLike = Readonly<Record<string, LinkLike | readonly LinkLike[] | undefined>>;
/** Anything that may carry `_links`: a parsed resource, a plain object, or nothing yet. */
export type HalLike = { readonly _links?: LinksLike | null | undefined } | null | undefined;

/** All links of a relation, whether the server sent one link or an array. */
export function linksOf(resource: HalLike, rel: string): readonly LinkLike[] {
  const entry = resource?._links?.[rel];
  if (entry === undefined || entry === null) return [];
  const list: readonly LinkLike[] = Array.isArray(entry) ? entry : [entry as LinkLike];
  return list.filter((link) => typeof link?.href === 'string');
}

/** The permission test of the whole product: the server offers a link or it does not. */
export function hasLink(resource: HalLike, rel: string): boolean {
  return linksOf(resource, rel).length > 0;
}

/** The first href of a relation, resolved against `base` when given. */
export function linkHref(resource: HalLike, rel: string, base?: string): string | undefined {
  const [first] = linksOf(resource, rel);
  return first === undefined ? undefined : resolveLink(first, base);
}

const PLACEHOLDER_ORIGIN = 'http://placeholder.invalid';

/**
 * Resolves `href` against `base`. A base that is itself relative (such as '/api/') yields a
 * root-relative result, so the SPA can resolve against its same-origin API prefix. A template
 * part ('{?page,size}') is kept verbatim: URL parsing would percent-encode its braces.
 */
export function resolveHref(href: string, base?: string, templated = false): string {
  if (base === undefined || base === '') return href;
  const braceAt = templated ? href.indexOf('{') : -1;
  const fixed = braceAt >= 0 ? href.slice(0, braceAt) : href;
  const template = braceAt >= 0 ? href.slice(braceAt) : '';
  const resolved = resolveFixed(fixed, base);
  return resolved === undefined ? href : resolved + template;
}

function resolveLink(link: LinkLike, base: string | undefined): string {
  return resolveHref(link.href, base, link.templated === true);
}

function resolveFixed(href: string, base: string): string | undefined {
  try {
    return new URL(href, base).href;
  } catch {
    // base is not absolute: fall through to resolving against a placeholder origin.
  }
  try {
    const url = new URL(href, new URL(base, `${PLACEHOLDER_ORIGIN}/`));
    return url.origin === PLACEHOLDER_ORIGIN ? url.pathname + url.search + url.hash : url.href;
  } catch {
    return undefined;
  }
}
