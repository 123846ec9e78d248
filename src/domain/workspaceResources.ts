// Workspace resources (spec 002 §3 Workspace 'resources', §7 'GET workspace resources path'; the
// Matatika reference's resources): files a workspace keeps, each named by a path such as
// 'reports/2026.csv'. A path is hostile input: it names a file in a download's Content-Disposition
// and a segment of a URL, so it is refused unless it is plain. Pure: the server validates and serves
// with these rules, the SPA builds the download's address and file name with the same ones.

import { ownValue } from './ownValue';

export const RESOURCE_LIMITS = {
  /** the whole path, in characters */
  pathLength: 255,
  /** one segment (a folder or the file name), in characters */
  segmentLength: 100,
  /** folders deep */
  segments: 8,
} as const;

export type ResourcePathCheck = { ok: true; path: string } | { ok: false; message: string };

// C0 and C1 controls, DEL, and the invisible or direction-changing characters that make a name
// read as something else ('invoice\u202Efdp.exe' shows as 'invoiceexe.pdf').
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/u;
/** Characters no file system of our users takes in a name, or that quote and escape in headers. */
const RESERVED = /["*:<>?\\|]/;

/** The path a resource is stored under, or why it cannot be one. NFC-normalised, so one name has one form. */
export function checkResourcePath(raw: string): ResourcePathCheck {
  const path = raw.normalize('NFC');
  if (path.trim() === '') return { ok: false, message: 'must name a file' };
  if (path.length > RESOURCE_LIMITS.pathLength) return { ok: false, message: `must be at most ${RESOURCE_LIMITS.pathLength} characters` };
  if (/\p{Cs}/u.test(path)) return { ok: false, message: 'must be well-formed text (no lone surrogate)' };
  if (CONTROL.test(path)) return { ok: false, message: 'must not contain control or invisible characters' };
  if (RESERVED.test(path)) return { ok: false, message: 'must not contain any of " * : < > ? \\ |' };
  if (path.startsWith('/')) return { ok: false, message: 'must be relative (no leading /)' };
  const segments = path.split('/');
  if (segments.length > RESOURCE_LIMITS.segments) return { ok: false, message: `must be at most ${RESOURCE_LIMITS.segments} folders deep` };
  for (const segment of segments) {
    if (segment === '') return { ok: false, message: 'must not have an empty folder name (// or a trailing /)' };
    if (segment === '.' || segment === '..') return { ok: false, message: 'must not contain . or .. as a folder name' };
    if (segment.trim() !== segment || segment.endsWith('.')) return { ok: false, message: 'must not have a name that starts or ends with a space, or ends with a dot' };
    if (segment.length > RESOURCE_LIMITS.segmentLength) return { ok: false, message: `must have names of at most ${RESOURCE_LIMITS.segmentLength} characters` };
  }
  return { ok: true, path };
}

/** The folder the Lab's uploads go to: tap-files reads it when its `paths` names it. */
export const UPLOAD_FOLDER = 'uploads';
/** What tap-files reads (issue 39): CSV, NDJSON and JSON arrays, by their usual extensions. */
export const UPLOADABLE_EXTENSIONS = ['.csv', '.json', '.ndjson', '.jsonl'] as const;

/**
 * Where a file the person picked is stored: `uploads/<its name>`, or why it cannot be. The name
 * is checked as any resource path is, and must end in an extension tap-files reads, so an upload
 * is a file a pipeline can load.
 */
export function uploadPath(fileName: string): ResourcePathCheck {
  if (fileName.includes('/')) return { ok: false, message: 'must be a file name, not a path' };
  const checked = checkResourcePath(`${UPLOAD_FOLDER}/${fileName}`);
  if (!checked.ok) return checked;
  const lower = checked.path.toLowerCase();
  if (!UPLOADABLE_EXTENSIONS.some((extension) => lower.endsWith(extension) && lower.length > UPLOAD_FOLDER.length + 1 + extension.length)) {
    return { ok: false, message: `must be a CSV, JSON or NDJSON file (${UPLOADABLE_EXTENSIONS.join(', ')})` };
  }
  return checked;
}

/** A file's size as people read it: bytes, then KB, MB and GB (1024 each) with one decimal under 10. */
export function fileSizeText(bytes: number): string {
  const units = ['KB', 'MB', 'GB'];
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = value < 10 ? Math.floor(value * 10) / 10 : Math.floor(value);
  return `${shown} ${units[unit]!}`;
}

/** The file name a download is saved under: the path's last segment. */
export function resourceFileName(path: string): string {
  return path.split('/').pop() ?? path;
}

/** The path as a URL's segments (each percent-encoded, the slashes kept). */
export function encodeResourcePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

const TOKEN = /^[a-z0-9!#$&^_.+-]{1,64}\/[a-z0-9!#$&^_.+-]{1,64}$/;

/** A declared media type without its parameters, lower case; undefined when it is not one. */
export function mediaTypeOf(declared: string | null | undefined): string | undefined {
  const type = (declared ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return TOKEN.test(type) ? type : undefined;
}

const BY_EXTENSION: Readonly<Record<string, string>> = {
  csv: 'text/csv',
  txt: 'text/plain',
  md: 'text/markdown',
  json: 'application/json',
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  zip: 'application/zip',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  html: 'text/html',
  htm: 'text/html',
  svg: 'image/svg+xml',
};

/**
 * The content type recorded for a resource: the uploader's declared type when it is a media type
 * (other than the generic octet-stream), else the file name's extension's, else octet-stream.
 * The content itself is never sniffed: what it "looks like" decides nothing.
 */
export function recordedContentType(declared: string | null | undefined, path: string): string {
  const type = mediaTypeOf(declared);
  if (type !== undefined && type !== 'application/octet-stream') return type;
  const extension = resourceFileName(path).split('.').pop()?.toLowerCase() ?? '';
  // own keys only: a file named `x.constructor` must not find Object.prototype's
  return ownValue(BY_EXTENSION, extension) ?? 'application/octet-stream';
}

/**
 * Types a browser shows inertly (data, documents, raster images). Anything else — HTML, SVG, XML,
 * scripts, unknown types — is served as application/octet-stream, so an uploaded page can never
 * run in our origin even if the download were opened in place.
 */
const INERT_TYPES = new Set([
  'text/plain',
  'text/csv',
  'text/markdown',
  'application/json',
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/zip',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
]);

/** The Content-Type a download is served with: an inert recorded type (text with UTF-8), else octet-stream. */
export function servedContentType(recorded: string): string {
  const type = mediaTypeOf(recorded);
  if (type === undefined || !INERT_TYPES.has(type)) return 'application/octet-stream';
  return type.startsWith('text/') ? `${type}; charset=utf-8` : type;
}

/**
 * `attachment` with the file name twice (RFC 6266): an ASCII fallback with anything outside plain
 * printable ASCII (and the quote and backslash) replaced by '_', and the exact name as RFC 8187 UTF-8.
 */
export function attachmentDisposition(path: string): string {
  const name = resourceFileName(path);
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_') || 'download';
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

/**
 * What DownloadResource says when a download failed: a missing file in words, else the server's
 * message for that path, else `fallback` (the shell's text for the failure).
 */
export function downloadFailureText(path: string, status: number | undefined, serverMessage: string | undefined, fallback: string): string {
  if (status === 404) return `${path} is not among this workspace's files.`;
  const message = serverMessage?.trim();
  return `${path} could not be downloaded: ${message !== undefined && message !== '' ? message : fallback}`;
}
