import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardDrawsVisualisation, chipsPerSlide, explorePageTitle, FEED_VIEWS, feedViewOf, feedViewStorageKey, selectedTag, tagSearchName, visibleFeedView } from './explore';
import { hostileString } from './hostile.fixture';

describe('feedViewOf', () => {
  it('prefers the remembered view, then FEED_VIEW_DEFAULT, then grid', () => {
    expect(feedViewOf('listView', { appProperties: { FEED_VIEW_DEFAULT: 'largCardView' } })).toBe('listView');
    expect(feedViewOf(null, { appProperties: { FEED_VIEW_DEFAULT: ' largCardView ' } })).toBe('largCardView');
    expect(feedViewOf(undefined, undefined)).toBe('gridview');
    expect(feedViewOf('bogus', { appProperties: { FEED_VIEW_DEFAULT: 'nope' } })).toBe('gridview');
  });

  it('always answers one of the three views, whatever is stored or set', () => {
    fc.assert(
      fc.property(fc.option(hostileString), hostileString, (stored, property) => {
        expect(FEED_VIEWS).toContain(feedViewOf(stored, { appProperties: { FEED_VIEW_DEFAULT: property } }));
      }),
    );
  });

  it('hides grid on small screens only', () => {
    expect(visibleFeedView('gridview', true)).toBe('largCardView');
    expect(visibleFeedView('gridview', false)).toBe('gridview');
    expect(visibleFeedView('listView', true)).toBe('listView');
  });
});

describe('explore texts and chips', () => {
  it('titles the page from EXPLORE_PAGE_TITLE or Explore', () => {
    expect(explorePageTitle({ appProperties: { EXPLORE_PAGE_TITLE: 'Discover' } })).toBe('Discover');
    expect(explorePageTitle({ appProperties: { EXPLORE_PAGE_TITLE: '  ' } })).toBe('Explore');
    expect(explorePageTitle(null)).toBe('Explore');
  });

  it('shows six chips per slide on wide screens, down to one, never fewer or more', () => {
    expect(chipsPerSlide(1280)).toBe(6);
    expect(chipsPerSlide(375)).toBe(1);
    fc.assert(
      fc.property(fc.double(), (width) => {
        const n = chipsPerSlide(width);
        expect(n).toBeGreaterThanOrEqual(1);
        expect(n).toBeLessThanOrEqual(6);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 3000 }), (a, b) => {
        expect(chipsPerSlide(Math.min(a, b))).toBeLessThanOrEqual(chipsPerSlide(Math.max(a, b)));
      }),
    );
  });

  it('reads the selected tag from a search of one tag filter only', () => {
    expect(selectedTag('tag:kpi')).toBe('kpi');
    expect(selectedTag('tag:kpi revenue')).toBeUndefined();
    expect(selectedTag('revenue')).toBeUndefined();
    expect(tagSearchName(' Customer Health ')).toBe('customer-health');
    // a chip's search selects that chip again
    fc.assert(
      fc.property(hostileString, (text) => {
        const name = tagSearchName(text);
        expect(selectedTag(`tag:${name}`)).toBe(name === '' ? undefined : name);
      }),
    );
  });
});

describe('cardDrawsVisualisation', () => {
  const data = { data: { href: '/api/datasets/d1/data' } };
  const bar = JSON.stringify({ 'chartjs-chart': { chartType: 'bar' } });
  it('draws only in a Large card, with a visualisation and a data link', () => {
    expect(cardDrawsVisualisation({ _links: data, visualisation: bar }, 'largCardView')).toBe(true);
    expect(cardDrawsVisualisation({ _links: data, visualisation: bar }, 'listView')).toBe(false);
    expect(cardDrawsVisualisation({ _links: data, visualisation: bar }, 'gridview')).toBe(false);
    expect(cardDrawsVisualisation({ _links: {}, visualisation: bar }, 'largCardView')).toBe(false);
    expect(cardDrawsVisualisation({ _links: data, visualisation: null }, 'largCardView')).toBe(false);
    expect(cardDrawsVisualisation({ _links: data, visualisation: ' ' }, 'largCardView')).toBe(false);
  });
  it('draws a visualisation it cannot read as the dataset page does (a table of the rows)', () => {
    expect(cardDrawsVisualisation({ _links: data, visualisation: '{"nope": {}}' }, 'largCardView')).toBe(true);
    expect(cardDrawsVisualisation({ _links: data, visualisation: '{not json' }, 'largCardView')).toBe(true);
  });
});

describe('explore, boundary by boundary', () => {
  it('changes the number of chips exactly at each breakpoint', () => {
    const at: [number, number][] = [
      [1200, 6], [1199, 5], [992, 5], [991, 4], [768, 4], [767, 3], [576, 3], [575, 2], [420, 2], [419, 1], [0, 1], [-5, 1],
    ];
    for (const [width, chips] of at) expect(chipsPerSlide(width), String(width)).toBe(chips);
    // a width no screen reports (not a number, infinite) shows the wide screen's six
    expect(chipsPerSlide(Number.NaN)).toBe(6);
    expect(chipsPerSlide(Number.POSITIVE_INFINITY)).toBe(6);
  });

  it('reads a tag filter around white space, and no other search', () => {
    expect(selectedTag('  tag:kpi  ')).toBe('kpi');
    expect(selectedTag('tag:a')).toBe('a');
    expect(selectedTag('xtag:kpi')).toBeUndefined();
    expect(selectedTag('tag:')).toBeUndefined();
    expect(selectedTag('tag: kpi')).toBeUndefined();
  });

  it('writes a run of white space in a tag as one hyphen', () => {
    expect(tagSearchName('Net  Promoter\t\nScore')).toBe('net-promoter-score');
  });

  it('remembers the view under one key per workspace', () => {
    expect(feedViewStorageKey('w1')).toBe('feedView:w1');
    expect(feedViewStorageKey('w 2')).toBe('feedView:w 2');
  });

  it('shows the large and list views on a small screen as they are', () => {
    expect(visibleFeedView('largCardView', true)).toBe('largCardView');
    expect(visibleFeedView('largCardView', false)).toBe('largCardView');
    expect(visibleFeedView('listView', false)).toBe('listView');
  });

  it('takes a default view only as one of the three names, and the remembered one first', () => {
    expect(feedViewOf('gridview', { appProperties: { FEED_VIEW_DEFAULT: 'listView' } })).toBe('gridview');
    expect(feedViewOf('', { appProperties: { FEED_VIEW_DEFAULT: 'listView' } })).toBe('listView');
    expect(feedViewOf(null, { appProperties: { FEED_VIEW_DEFAULT: 'ListView' } })).toBe('gridview');
    expect(feedViewOf(null, { appProperties: {} })).toBe('gridview');
    expect(explorePageTitle({ appProperties: { EXPLORE_PAGE_TITLE: '  Our data  ' } })).toBe('Our data');
    expect(explorePageTitle({ appProperties: { EXPLORE_PAGE_TITLE: '' } })).toBe('Explore');
  });

  it('draws a readable chart, and a table visualisation, only in a Large card with data', () => {
    const data = { data: { href: '/api/datasets/d1/data' } };
    const table = JSON.stringify({ 'chartjs-chart': { chartType: 'nope' } });
    expect(cardDrawsVisualisation({ _links: data, visualisation: table }, 'largCardView')).toBe(true);
    expect(cardDrawsVisualisation({ _links: { self: { href: '/api/datasets/d1' } }, visualisation: table }, 'largCardView')).toBe(false);
    expect(cardDrawsVisualisation({ _links: data, visualisation: undefined }, 'largCardView')).toBe(false);
  });
});
