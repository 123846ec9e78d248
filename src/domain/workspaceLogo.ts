// A workspace logo (spec 001 §5): chosen as jpeg, png or svg and cropped square in the browser,
// which draws the crop on a canvas — so every logo reaches the server as a PNG or JPEG data URL
// and an SVG's script never survives. The server accepts nothing else, checking the bytes, not
// just the declared type (decisions.md).

export const LOGO_TYPES = ['image/jpeg', 'image/png', 'image/svg+xml'] as const;
const LOGO_INITIAL_CROP = 100;
const LOGO_MIN_CROP = 10;
/** the crop is drawn at this size (px) when it is larger */
export const LOGO_OUTPUT_MAX = 512;
export const LOGO_ERROR = 'must be a PNG or JPEG image';

const DATA_URL = /^data:(image\/(?:png|jpeg));base64,([A-Za-z0-9+/]+={0,2})$/;
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_MAGIC = [0xff, 0xd8, 0xff];

function decodeHead(base64: string, bytes: number): number[] | undefined {
  try {
    const head = atob(base64.slice(0, Math.ceil(bytes / 3) * 4));
    return Array.from(head, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** True when the text is a base64 PNG or JPEG data URL whose bytes are that image type. */
export function isSafeLogo(text: string): boolean {
  const match = DATA_URL.exec(text);
  // only the signature is decoded, so the rest is checked by its shape: a canvas writes padded
  // base64, whose length is a multiple of 4; any other length is not an image a browser can draw
  if (!match || match[2]!.length % 4 !== 0) return false;
  const magic = match[1] === 'image/png' ? PNG_MAGIC : JPEG_MAGIC;
  const head = decodeHead(match[2]!, magic.length);
  return head !== undefined && magic.every((byte, i) => head[i] === byte);
}

/** The largest square crop that fits an image, centred, never smaller than the image allows. */
export function initialCrop(width: number, height: number): { x: number; y: number; size: number } {
  const w = Number.isFinite(width) && width > 0 ? width : 0;
  const h = Number.isFinite(height) && height > 0 ? height : 0;
  const size = Math.min(LOGO_INITIAL_CROP, w, h);
  return { x: Math.max(0, Math.floor((w - size) / 2)), y: Math.max(0, Math.floor((h - size) / 2)), size };
}

/** A crop may be confirmed once it is at least 10 px wide. */
export function canConfirmCrop(size: number): boolean {
  return Number.isFinite(size) && size >= LOGO_MIN_CROP;
}
