import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HUGE_TEXTS, hostileString, wellFormed } from './hostile.fixture';
import { isRepresentableSegment } from './routes';
import { feedSearchTarget, isSearchShortcut, readSearchParam, SEARCH_FUZZINESS, stripQuotes, tagSearchTarget, toolbarSearchTarget, toolbarSearchText } from './searchQuery';

describe('toolbarSearchTarget and feedSearchTarget', () => {
  it('sends the quoted text to explore, and to feed', () => {
    expect(toolbarSearchTarget('w1', 'sales by month')).toBe('/l/w1/explore?search=%22sales%20by%20month%22');
    expect(feedSearchTarget('w1', 'sales')).toBe('/l/w1/feed?search=%22sales%22');
  });

  it('trims, and leaves out the search for blank text', () => {
    expect(toolbarSearchTarget('w1', '  sales ')).toBe('/l/w1/explore?search=%22sales%22');
    expect(toolbarSearchTarget('w1', '   ')).toBe('/l/w1/explore');
    expect(feedSearchTarget('w1', '')).toBe('/l/w1/feed');
    expect(toolbarSearchTarget('w1', '""')).toBe('/l/w1/explore');
  });

  it('does not double the quotes the user typed', () => {
    expect(toolbarSearchTarget('w1', '"sales"')).toBe('/l/w1/explore?search=%22sales%22');
  });

  it('encodes characters that would break the URL', () => {
    expect(toolbarSearchTarget('w/1', 'a&b=c#d+e%')).toBe('/l/w%2F1/explore?search=%22a%26b%3Dc%23d%2Be%25%22');
  });

  it('the search value read back is the quoted text, lowercased', () => {
    fc.assert(
      fc.property(hostileString.filter(isRepresentableSegment), hostileString, (workspaceId, text) => {
        const target = toolbarSearchTarget(workspaceId, text);
        const url = new URL(target, 'http://h');
        expect(url.pathname.endsWith('/explore')).toBe(true);
        const raw = target.includes('?search=') ? target.slice(target.indexOf('?search=') + '?search='.length) : null;
        if (stripQuotes(text) === '') {
          expect(raw).toBeNull();
        } else {
          expect(raw).not.toMatch(/[&#+ ]/);
          const phrase = `"${wellFormed(stripQuotes(text))}"`;
          expect(decodeURIComponent(raw ?? '')).toBe(phrase);
          expect(readSearchParam(raw)).toBe(phrase.replace(/\+/g, ' ').toLowerCase());
        }
      }),
    );
  });

  it('a workspace id no URL can carry goes to the landing instead', () => {
    expect(toolbarSearchTarget('..', 'x')).toBe('/');
    expect(feedSearchTarget('', 'x')).toBe('/');
  });
});

describe('tagSearchTarget', () => {
  it('writes spaces as hyphens inside the quoted tag search', () => {
    expect(tagSearchTarget('w1', 'cost centre')).toBe('/l/w1/explore?search=%22tag%3Acost-centre%22');
    // a run of spaces is one hyphen
    expect(tagSearchTarget('w1', 'cost \t centre')).toBe('/l/w1/explore?search=%22tag%3Acost-centre%22');
  });
});

describe('stripQuotes', () => {
  it('removes straight and typographic quotes and trims', () => {
    expect(stripQuotes('"sales"')).toBe('sales');
    expect(stripQuotes('  \u201Csales by month\u201D ')).toBe('sales by month');
    expect(stripQuotes('tag:"a b"')).toBe('tag:a b');
    expect(stripQuotes(null)).toBe('');
  });

  it('leaves no quote and no outer space, and is idempotent', () => {
    fc.assert(
      fc.property(hostileString, (text) => {
        const stripped = stripQuotes(text);
        expect(stripped).not.toMatch(/["\u201C\u201D]/);
        expect(stripped).toBe(stripped.trim());
        expect(stripQuotes(stripped)).toBe(stripped);
      }),
    );
  });
});

describe('readSearchParam', () => {
  it('decodes, turns plus signs into spaces and lowercases', () => {
    expect(readSearchParam('%22Sales+By%20Month%22')).toBe('"sales by month"');
    expect(readSearchParam('tag:Cost-Centre')).toBe('tag:cost-centre');
    expect(readSearchParam('a%2Bb')).toBe('a b');
  });

  it('does not throw on malformed escapes', () => {
    expect(readSearchParam('100%')).toBe('100%');
    expect(readSearchParam('%E0%A4%A')).toBe('%e0%a4%a');
    expect(readSearchParam('%C3%89t%C3')).toBe('ét%c3');
  });

  it('maps nothing to the empty text', () => {
    expect(readSearchParam(null)).toBe('');
    expect(readSearchParam(undefined)).toBe('');
  });

  it('never throws, never keeps a plus sign, and is lower case', () => {
    fc.assert(
      fc.property(hostileString, (raw) => {
        const value = readSearchParam(raw);
        expect(value).not.toContain('+');
        expect(value).toBe(value.toLowerCase());
      }),
    );
    for (const text of HUGE_TEXTS) expect(() => readSearchParam(text)).not.toThrow();
  });
});

describe('SEARCH_FUZZINESS', () => {
  it('is 2', () => {
    expect(SEARCH_FUZZINESS).toBe(2);
  });
});

describe('the toolbar search box', () => {
  it("shows explore's own search without quotes, and nothing on any other page", () => {
    expect(toolbarSearchText('explore', '"monthly revenue"')).toBe('monthly revenue');
    expect(toolbarSearchText('explore', undefined)).toBe('');
    expect(toolbarSearchText('feed', '"monthly revenue"')).toBe('');
    expect(toolbarSearchText('dataset', 'x')).toBe('');
    expect(toolbarSearchText(undefined, 'x')).toBe('');
  });

  it("jumps to search on '/' outside a text field, and on Ctrl+K or ⌘K anywhere", () => {
    const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }> = {}) => ({ key: k, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods });
    expect(isSearchShortcut(key('/'), false)).toBe(true);
    expect(isSearchShortcut(key('/'), true)).toBe(false);
    expect(isSearchShortcut(key('k', { ctrlKey: true }), true)).toBe(true);
    expect(isSearchShortcut(key('K', { metaKey: true }), false)).toBe(true);
    expect(isSearchShortcut(key('k'), false)).toBe(false);
    expect(isSearchShortcut(key('k', { ctrlKey: true, altKey: true }), false)).toBe(false);
    expect(isSearchShortcut(key('k', { ctrlKey: true, shiftKey: true }), false)).toBe(false);
    expect(isSearchShortcut(key('/', { ctrlKey: true }), false)).toBe(false);
  });

  it('never takes a key typed into a field without Ctrl or ⌘, nor anything with Alt', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3 }), fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean(), (k, ctrlKey, metaKey, altKey, shiftKey) => {
        const modifiers = { ctrlKey, metaKey, altKey, shiftKey };
        if (!ctrlKey && !metaKey) expect(isSearchShortcut({ key: k, ...modifiers }, true)).toBe(false);
        if (altKey) expect(isSearchShortcut({ key: k, ...modifiers }, false)).toBe(false);
        if (k.toLowerCase() !== 'k' && k !== '/') expect(isSearchShortcut({ key: k, ...modifiers }, false)).toBe(false);
      }),
    );
  });
});
