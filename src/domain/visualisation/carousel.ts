// Carousel slides: each row needs a name and a url (spec 002 §3, §5); one slide per 250 px (§9).
import { keysDetail } from './chartData';
import { safeUrl } from './links';
import { CAROUSEL_IMAGE_WIDTH, NO_DATA_TO_DISPLAY, ROW_DATA_NONCONFORMING } from './messages';
import { rawColumnValue } from './metadata';
import { cellText } from './table';

export interface CarouselSlide {
  name: string;
  /** a safe http(s) or same-site address; null when the row's url is not one (the slide shows its name only) */
  url: string | null;
}

type CarouselResult = { ok: true; slides: CarouselSlide[] } | { ok: false; message: string; detail: string | null };

const REQUIRED = ['name', 'url'] as const;

/** How many images fit side by side: floor(width / 250), at least 1. */
export function carouselPerView(width: number): number {
  if (!Number.isFinite(width) || width <= 0) return 1;
  return Math.max(1, Math.floor(width / CAROUSEL_IMAGE_WIDTH));
}

/** The slides of the rows, or the row-data message naming the expected and the actual keys. */
export function carouselSlides(rows: readonly Readonly<Record<string, unknown>>[], metadataName: string | null): CarouselResult {
  if (rows.length === 0) return { ok: false, message: NO_DATA_TO_DISPLAY, detail: null };
  const slides: CarouselSlide[] = [];
  for (const row of rows) {
    const name = rawColumnValue(row, metadataName, 'name');
    const url = rawColumnValue(row, metadataName, 'url');
    if (name === undefined || name === null || url === undefined || url === null) {
      const actual = row && typeof row === 'object' ? Object.keys(row) : [];
      return { ok: false, message: ROW_DATA_NONCONFORMING, detail: keysDetail(REQUIRED, actual) };
    }
    slides.push({ name: cellText(name), url: safeUrl(typeof url === 'string' ? url : null) });
  }
  return { ok: true, slides };
}
