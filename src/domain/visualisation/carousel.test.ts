import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { carouselPerView, carouselSlides } from './carousel';
import { NO_DATA_TO_DISPLAY, ROW_DATA_NONCONFORMING } from './messages';

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

describe('carousel edges (by hand)', () => {
  it('refuses a row whose name or url is null, naming its keys', () => {
    for (const row of [{ name: null, url: '/a.png' }, { name: 'A', url: null }, { url: '/a.png' }]) {
      expect(carouselSlides([row], null), JSON.stringify(row)).toEqual({ ok: false, message: ROW_DATA_NONCONFORMING, detail: `expected keys: name, url; actual keys: ${Object.keys(row).join(', ')}` });
    }
  });

  it('shows a url that is not text as no link', () => {
    expect(carouselSlides([{ name: 7, url: 42 }], null)).toEqual({ ok: true, slides: [{ name: '7', url: null }] });
  });
});
