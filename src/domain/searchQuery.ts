import { safeDecode } from './paths';
import { pathTo } from './routes';

// Search text rules of spec 000 sections 2.3 and 5 (and the tag links of spec 002).

export const SEARCH_FUZZINESS = 2;

const QUOTES = /["\u201C\u201D]/g;

/** Removes straight and typographic double quotes, then trims: applied before the search request. */
export function stripQuotes(query: string | null | undefined): string {
  return typeof query === 'string' ? query.replace(QUOTES, '').trim() : '';
}

function searchTarget(workspaceId: string, page: 'explore' | 'feed', text: string): string {
  // Quotes already typed would double up around the phrase; they are stripped before the request anyway.
  const phrase = stripQuotes(text);
  return pathTo(page, { workspaceId }, phrase === '' ? {} : { search: `"${phrase}"` });
}

/** Toolbar search: /l/{ws}/explore?search="text"; blank text opens explore without a search. */
export function toolbarSearchTarget(workspaceId: string, text: string): string {
  return searchTarget(workspaceId, 'explore', text);
}

/** Search forms outside the toolbar: /l/{ws}/feed?search="text". */
export function feedSearchTarget(workspaceId: string, text: string): string {
  return searchTarget(workspaceId, 'feed', text);
}

/** A dataset's #tag link: explore?search="tag:{tag}", spaces written as hyphens. */
export function tagSearchTarget(workspaceId: string, tag: string): string {
  return searchTarget(workspaceId, 'explore', `tag:${stripQuotes(tag).replace(/\s+/g, '-')}`);
}

/** The search value read from the URL: decoded (never throwing), '+' as space, lowercased. */
export function readSearchParam(raw: string | null | undefined): string {
  if (typeof raw !== 'string') return '';
  return safeDecode(raw).replace(/\+/g, ' ').toLowerCase();
}

/**
 * What the toolbar's search box shows on a page: the search explore is showing, else nothing, so
 * an old query does not linger after the person has moved on.
 */
export function toolbarSearchText(routeName: string | undefined, search: string | undefined): string {
  return routeName === 'explore' ? stripQuotes(search) : '';
}

/** A key press that jumps to search: '/' outside a text field (as on GitHub), or Ctrl+K / ⌘K anywhere. */
export function isSearchShortcut(key: { readonly key: string; readonly ctrlKey: boolean; readonly metaKey: boolean; readonly altKey: boolean; readonly shiftKey: boolean }, typingInField: boolean): boolean {
  if (key.altKey) return false;
  if ((key.ctrlKey || key.metaKey) && !key.shiftKey && key.key.toLowerCase() === 'k') return true;
  return key.key === '/' && !key.ctrlKey && !key.metaKey && !typingInField;
}
