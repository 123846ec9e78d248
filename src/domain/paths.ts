// URL path text rules shared by the route builders and readers.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** encodeURIComponent throws on a lone surrogate; such a half character becomes U+FFFD instead. */
export function encodeText(text: string): string {
  return encodeURIComponent(text.replace(LONE_SURROGATE, '\uFFFD'));
}

/** Encodes one path segment (a workspace id, one part of a dataset alias). */
export function encodeSegment(segment: string): string {
  return encodeText(segment);
}

/** A URL parser always collapses these, so they can never name anything. */
export function isDotSegment(segment: string): boolean {
  return segment === '.' || segment === '..';
}

/**
 * decodeURIComponent that never throws: well-formed escapes are decoded, a malformed '%' or an
 * escape run that is not valid UTF-8 is kept as typed.
 */
export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, decodeRun);
  }
}

const ESCAPE_LENGTH = 3;
const MAX_UTF8_BYTES = 4;

// Walks a run of escapes, decoding the shortest valid UTF-8 sequence at each point and keeping
// any escape that starts no valid sequence.
function decodeRun(run: string): string {
  let out = '';
  let at = 0;
  while (at < run.length) {
    let decoded: string | undefined;
    let used = ESCAPE_LENGTH;
    for (let bytes = 1; bytes <= MAX_UTF8_BYTES && decoded === undefined; bytes += 1) {
      const piece = run.slice(at, at + bytes * ESCAPE_LENGTH);
      if (piece.length < bytes * ESCAPE_LENGTH) break;
      try {
        decoded = decodeURIComponent(piece);
        used = piece.length;
      } catch {
        // not a complete sequence yet: try one more byte
      }
    }
    out += decoded ?? run.slice(at, at + ESCAPE_LENGTH);
    at += used;
  }
  return out;
}

/** The path part of a location text: query and fragment removed. */
export function pathOnly(location: string): string {
  const cut = location.search(/[?#]/);
  return cut === -1 ? location : location.slice(0, cut);
}
