import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString, hostileStringWithHuge } from '../hostile.fixture';
import { carouselPerView, carouselSlides } from './carousel';
import { resolveLink, safeUrl } from './links';
import { NO_DATA_TO_DISPLAY, ROW_DATA_NONCONFORMING, showingRowsText } from './messages';
import { parseMetadata } from './metadata';
import { buildMetric } from './metric';
import { colourAt, DEFAULT_PALETTE, textOn } from './palette';
import { cellText, tableColumns, visibleRowCount } from './table';

describe('safeUrl and resolveLink', () => {
  it('keeps http(s) and same-site paths, refuses other schemes', () => {
    expect(safeUrl('https://example.com/a.png')).toBe('https://example.com/a.png');
    expect(safeUrl('/api/x.png')).toBe('/api/x.png');
    for (const bad of ['javascript:alert(1)', ' JavaScript:alert(1)', 'data:image/png;base64,AA', '//evil.test/x', '/\\evil.test', 'java\nscript:x', 'vbscript:x', 'file:///etc/passwd', '', null, undefined]) expect(safeUrl(bad), String(bad)).toBeNull();
  });
  it('never lets a non-http(s) absolute address through (property)', () => {
    fc.assert(fc.property(hostileStringWithHuge, (text) => {
      const url = safeUrl(text);
      if (url !== null) expect(url.startsWith('/') ? !url.startsWith('//') : /^https?:\/\//.test(url)).toBe(true);
    }));
  });
  it('goes to a dataset by alias or needs an href', () => {
    const href = (alias: string) => `/l/w/dataset/${alias}`;
    expect(resolveLink({ dataset: 'a/b', href: null, label: null }, href)).toEqual({ ok: true, href: '/l/w/dataset/a/b' });
    expect(resolveLink({ dataset: null, href: null, label: 'x' }, href)).toMatchObject({ ok: false, message: 'Link error: expected `href`' });
  });
});

describe('carousel', () => {
  it('shows floor(width/250) images, at least one', () => {
    expect([carouselPerView(0), carouselPerView(249), carouselPerView(250), carouselPerView(1280), carouselPerView(Number.NaN), carouselPerView(-5)]).toEqual([1, 1, 1, 5, 1, 1]);
    fc.assert(fc.property(fc.double(), (w) => { expect(carouselPerView(w)).toBeGreaterThanOrEqual(1); }));
  });
  it('needs name and url in every row, naming expected and actual keys', () => {
    expect(carouselSlides([{ name: 'A', url: 'https://x.test/a.png' }, { name: 'B', url: 'javascript:x' }], null)).toEqual({ ok: true, slides: [{ name: 'A', url: 'https://x.test/a.png' }, { name: 'B', url: null }] });
    expect(carouselSlides([{ name: 'A', picture: 'x' }], null)).toEqual({ ok: false, message: ROW_DATA_NONCONFORMING, detail: 'expected keys: name, url; actual keys: name, picture' });
    expect(carouselSlides([], null)).toMatchObject({ ok: false, message: NO_DATA_TO_DISPLAY });
    expect(carouselSlides([{ 'pics.name': 'A', 'pics.url': '/a.png' }], 'pics')).toMatchObject({ ok: true });
  });
});

describe('html-metric and html-table', () => {
  it('a metric shows aggregates labelled by columns, at most 10 rows, on the first palette colour', () => {
    const metadata = parseMetadata('{"palette":[[1,2,3]],"related_table":{"columns":[{"name":"region"}],"aggregates":[{"name":"total","label":"Total"}]}}');
    if (!metadata.ok) throw new Error('metadata');
    const rows = Array.from({ length: 12 }, (_, i) => ({ region: `r${i}`, total: i }));
    const metric = buildMetric(rows, metadata.metadata);
    expect(metric.rows).toHaveLength(10);
    expect(metric.total).toBe(12);
    expect(metric.rows[0]).toEqual([{ label: 'Total (r0)', value: '0', number: 0 }]);
    expect(metric.background).toEqual([1, 2, 3]);
    expect(buildMetric([{ a: 1 }], null)).toEqual({ rows: [[{ label: 'a', value: '1', number: 1 }]], total: 1, background: DEFAULT_PALETTE[0] });
  });
  it('tables have every key as a column and say how many rows they show', () => {
    expect(tableColumns([{ a: 1 }, { b: 2, a: 3 }])).toEqual(['a', 'b']);
    expect(showingRowsText(10, 25)).toBe('(showing 10 of 25 rows)');
    expect([visibleRowCount(25, 1, 10), visibleRowCount(25, 3, 10), visibleRowCount(5, 1, 10), visibleRowCount(5, Number.NaN, 10)]).toEqual([10, 25, 5, 5]);
    expect([cellText(null), cellText('x'), cellText(1.5), cellText({ a: 1 }), cellText(true)]).toEqual(['', 'x', '1.5', '{"a":1}', 'true']);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(cellText(cycle)).toBe('');
  });
  it('cellText never throws (property)', () => {
    fc.assert(fc.property(fc.oneof(fc.jsonValue(), hostileString, fc.anything()), (value) => { expect(typeof cellText(value)).toBe("string"); }));
  });
});

describe('palette', () => {
  it('has 12 default colours and cycles', () => {
    expect(DEFAULT_PALETTE).toHaveLength(12);
    expect(colourAt(12, null)).toEqual(DEFAULT_PALETTE[0]);
    expect(colourAt(1, [[9, 9, 9]])).toEqual([9, 9, 9]);
    expect(textOn([255, 255, 255])).toBe('black');
    expect(textOn([15, 108, 189])).toBe('white');
  });
});
