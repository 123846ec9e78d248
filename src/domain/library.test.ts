import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString, hostileStringWithHuge } from './hostile.fixture';
import { channelSearch, channelSlides, channelTerm, LIBRARY_TEXT, listInfoText, listName, needsReadMore, newsCollectionSchema, newsWithDatasets, pageTitle, selectedChannel, toggledSearch } from './library';

const channels = [{ name: 'Sales' }, { name: 'Weekly review' }, { name: 'Ops & Support' }];

describe('library texts and titles', () => {
  it('keeps the spec’s texts word for word', () => {
    expect(LIBRARY_TEXT).toMatchObject({
      noStarred: 'No starred datasets.',
      noNews: 'No news. Watch some datasets to start receiving news.',
      noDatasets: 'No datasets.',
      deleteList: 'Remove this list from the workspace...',
    });
  });

  it('reads page titles from the workspace, defaulting to the page name', () => {
    expect(pageTitle(undefined, 'channels')).toBe('Channels');
    expect(pageTitle({ appProperties: { LIBRARY_PAGE_TITLE: '  ' } }, 'library')).toBe('Library');
    expect(pageTitle({ appProperties: { STARRED_PAGE_TITLE: ' Favourites ' } }, 'starred')).toBe('Favourites');
    expect(pageTitle({ appProperties: { NEWS_PAGE_TITLE: 42 } }, 'news')).toBe('News');
    expect(listInfoText({ appProperties: { LIBRARY_LIST_INFO_ITEM_TEXT: 'Lists are yours' } })).toBe('Lists are yours');
    expect(listInfoText({ appProperties: {} })).toBeUndefined();
  });

  it('never throws on hostile property values', () => {
    fc.assert(
      fc.property(hostileString, (value) => {
        expect(typeof pageTitle({ appProperties: { NEWS_PAGE_TITLE: value } }, 'news')).toBe('string');
        listInfoText({ appProperties: { LIBRARY_LIST_INFO_ITEM_TEXT: value } });
      }),
    );
  });
});

describe('channel selection by search', () => {
  it('writes a channel as in:{name}, lowercased with hyphens', () => {
    expect(channelSearch('Weekly review')).toBe('in:weekly-review');
    expect(channelTerm('"Sales"')).toBe('sales');
  });

  it('pre-selects the channel a search starting with in: names', () => {
    expect(selectedChannel('in:weekly-review', channels)).toEqual({ name: 'Weekly review' });
    expect(selectedChannel('IN:Sales', channels)).toEqual({ name: 'Sales' });
    expect(selectedChannel('sales', channels)).toBeUndefined();
    expect(selectedChannel('in:nothing', channels)).toBeUndefined();
    expect(selectedChannel('', channels)).toBeUndefined();
  });

  it('toggles: clicking selects, clicking the selected one again clears', () => {
    expect(toggledSearch('', channels, 'Sales')).toBe('in:sales');
    expect(toggledSearch('in:sales', channels, 'Sales')).toBe('');
    expect(toggledSearch('in:sales', channels, 'Weekly review')).toBe('in:weekly-review');
  });

  it('a second click always undoes the first, and the selection follows the search (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...channels), fc.constantFrom('', 'in:sales', 'in:other', 'text'), (channel, start) => {
        const once = toggledSearch(start, channels, channel.name);
        const selected = selectedChannel(once, channels);
        if (once === '') expect(selected).toBeUndefined();
        else expect(selected?.name).toBe(channel.name);
        expect(toggledSearch(once, channels, channel.name)).toBe(selected === undefined ? channelSearch(channel.name) : '');
      }),
    );
  });

  it('never throws on hostile searches and names', () => {
    fc.assert(
      fc.property(hostileStringWithHuge, hostileString, (search, name) => {
        const list = [{ name }];
        selectedChannel(search, list);
        expect(typeof toggledSearch(search, list, name)).toBe('string');
        expect(channelSearch(name).startsWith('in:')).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('widths and limits', () => {
  it('shows 16, 13, 9, 7 or 5 channel icons by width', () => {
    expect([1280, 1199, 1100, 991, 800, 767, 575, 500, 480, 479, 320].map(channelSlides)).toEqual([16, 16, 13, 13, 9, 9, 9, 7, 7, 5, 5]);
    expect(channelSlides(Number.NaN)).toBe(5);
  });

  it('offers Read More over 38 px', () => {
    expect(needsReadMore(38)).toBe(false);
    expect(needsReadMore(39)).toBe(true);
    expect(needsReadMore(Number.NaN)).toBe(false);
  });

  it('requires a list name', () => {
    expect(listName('  ')).toBeUndefined();
    expect(listName(' Picks ')).toBe('Picks');
    fc.assert(fc.property(hostileStringWithHuge, (text) => {
      const name = listName(text);
      if (name !== undefined) expect(name.length).toBeLessThanOrEqual(200);
    }));
  });
});

describe('library, checked by hand', () => {
  it('titles every page after its own property and name', () => {
    const all = { appProperties: { STARRED_PAGE_TITLE: 'S', NEWS_PAGE_TITLE: 'N', CHANNELS_PAGE_TITLE: 'C', LIBRARY_PAGE_TITLE: 'L' } };
    expect((['starred', 'news', 'channels', 'library'] as const).map((page) => pageTitle(all, page))).toEqual(['S', 'N', 'C', 'L']);
    expect((['starred', 'news', 'channels', 'library'] as const).map((page) => pageTitle({ appProperties: {} }, page))).toEqual(['Starred', 'News', 'Channels', 'Library']);
    expect(listInfoText({ appProperties: { LIBRARY_LIST_INFO_ITEM_TEXT: ' \t ' } })).toBeUndefined();
    expect(listInfoText({ appProperties: { LIBRARY_LIST_INFO_ITEM_TEXT: ' Lists ' } })).toBe('Lists');
  });

  it('writes a run of spaces as one hyphen, and reads the whole first word after in:', () => {
    expect(channelTerm('Ops  &\tSupport')).toBe('ops-&-support');
    expect(channelSearch('Ops & Support')).toBe('in:ops-&-support');
    expect(selectedChannel('in:ops-&-support', channels)).toEqual({ name: 'Ops & Support' });
    expect(selectedChannel('in:sales more words', channels)).toEqual({ name: 'Sales' });
    expect(selectedChannel('"in:sales"', channels)).toEqual({ name: 'Sales' });
    expect(selectedChannel('in:sal', channels)).toBeUndefined();
    expect(selectedChannel('in:', channels)).toBeUndefined();
    expect(selectedChannel('text in:sales', channels)).toBeUndefined();
    expect(selectedChannel('xin:sales', channels)).toBeUndefined();
  });

  it('cuts a list name to 200 characters', () => {
    expect(listName(`${'a'.repeat(200)}b`)).toBe('a'.repeat(200));
    expect(listName(` ${'a'.repeat(199)}b `)).toBe(`${'a'.repeat(199)}b`);
  });

  it('takes no infinite width or height', () => {
    expect(channelSlides(Number.POSITIVE_INFINITY)).toBe(5);
    expect(channelSlides(574)).toBe(7);
    expect(channelSlides(990)).toBe(9);
    expect(channelSlides(1198)).toBe(13);
    expect(needsReadMore(Number.POSITIVE_INFINITY)).toBe(false);
  });

  it('keeps the news items that embed a dataset, and none of a missing page', () => {
    const item = (id: string, embedded: unknown) => ({ id, type: 'DATASET_PUBLISHED', resolved: false, created: '2026-01-01T00:00:00Z', ...(embedded === undefined ? {} : { _embedded: embedded }) });
    const page = newsCollectionSchema.parse({
      _embedded: {
        notifications: [item('a', { dataset: { id: 'd1', title: 'Sales' } }), item('b', { dataset: null }), item('c', {}), item('d', undefined), item('e', null), item('f', { dataset: { id: 'd2', title: 'Costs' } })],
      },
    });
    expect(newsWithDatasets(page).map((news) => [news.id, news._embedded.dataset.id])).toEqual([
      ['a', 'd1'],
      ['f', 'd2'],
    ]);
    expect(newsWithDatasets(null)).toEqual([]);
    expect(newsWithDatasets(undefined)).toEqual([]);
    expect(newsWithDatasets(newsCollectionSchema.parse({}))).toEqual([]);
  });
});
