// Where a metadata link, an image or a carousel slide may point: only http(s) addresses and this
// site's own paths, never javascript:, data: or another scheme.
import { LINK_EXPECTED_HREF } from './messages';
import type { MetadataLink } from './metadata';

/**
 * An address that is safe to put in an href or src: an absolute http(s) URL, or a path on this
 * site ('/x', not the protocol-relative '//host'). Anything else is null.
 */
export function safeUrl(text: string | null | undefined): string | null {
  if (typeof text !== 'string') return null;
  const trimmed = text.trim();
  if (trimmed === '' || /[\u0000-\u001f\u007f]/.test(trimmed)) return null;
  if (trimmed.startsWith('/')) return trimmed.startsWith('//') || trimmed.startsWith('/\\') ? null : trimmed;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
}

type LinkResult = { ok: true; href: string } | { ok: false; message: string; detail: string };

/**
 * The href of a drill-down link: a dataset alias goes where the page says datasets live; otherwise
 * the link needs a safe href, else 'Link error: expected `href`' with the link as detail.
 */
export function resolveLink(link: MetadataLink, datasetHref: (alias: string) => string): LinkResult {
  if (link.dataset !== null && link.dataset.trim() !== '') return { ok: true, href: datasetHref(link.dataset.trim()) };
  const href = safeUrl(link.href);
  if (href !== null) return { ok: true, href };
  return { ok: false, message: LINK_EXPECTED_HREF, detail: JSON.stringify(link) };
}
