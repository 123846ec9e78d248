import { formatJobDate } from './constants';
import type { LogEntry } from './resources';

// What the log modal does with lines, without React: merging pages by sequence (a page may
// repeat lines already held), search within the log, the first error, and the window of rows a
// virtualised view draws.

/**
 * Appends the lines after the last held sequence, in order. Lines at or before the last held
 * sequence are dropped, so re-reading a page or an overlapping poll never duplicates a row.
 */
export function appendLogLines(held: readonly LogEntry[], page: readonly LogEntry[]): LogEntry[] {
  let last = lastSequence(held);
  const fresh: LogEntry[] = [];
  for (const line of [...page].sort((a, b) => a.sequence - b.sequence)) {
    if (line.sequence > last) {
      fresh.push(line);
      last = line.sequence;
    }
  }
  return fresh.length === 0 ? [...held] : [...held, ...fresh];
}

/** The sequence to resume from: the last one held, 0 before any line. */
export function lastSequence(held: readonly LogEntry[]): number {
  return held.length === 0 ? 0 : (held[held.length - 1]?.sequence ?? 0);
}

/** Indices of the lines whose message contains the query, case-insensitively; none for a blank query. */
export function searchLog(lines: readonly LogEntry[], query: string): number[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return [];
  const hits: number[] = [];
  lines.forEach((line, index) => {
    if (line.message.toLowerCase().includes(needle)) hits.push(index);
  });
  return hits;
}

// Words a failing tap, target or shell prints; 'errors=0' or 'no error' are not errors.
const ERROR_PATTERN = /\b(error|exception|traceback|fatal|failed|critical)\b/i;
const NOT_AN_ERROR = /\b(no|0|zero)\s+errors?\b|\berrors?\s*[=:]\s*0\b/i;

export function isErrorLine(message: string): boolean {
  return ERROR_PATTERN.test(message) && !NOT_AN_ERROR.test(message);
}

/** Index of the first error line, or -1. */
export function firstErrorIndex(lines: readonly LogEntry[]): number {
  return lines.findIndex((line) => isErrorLine(line.message));
}

type RowWindow = { readonly start: number; readonly end: number };

/**
 * The rows a virtualised list draws for a scroll position: those in view plus `overscan` on
 * each side, clamped to [0, count). Fixed row height keeps this O(1) for any log length.
 */
export function visibleRows(scrollTop: number, viewportHeight: number, rowHeight: number, count: number, overscan = 10): RowWindow {
  const total = Math.max(0, Math.floor(finite(count)));
  const height = finite(rowHeight);
  if (total === 0 || height <= 0) return { start: 0, end: 0 };
  const top = Math.max(0, finite(scrollTop));
  const first = Math.min(total - 1, Math.floor(top / height));
  const inView = Math.ceil(Math.max(0, finite(viewportHeight)) / height) + 1;
  const margin = Math.max(0, Math.floor(finite(overscan)));
  return { start: Math.max(0, first - margin), end: Math.min(total, first + inView + margin) };
}

function finite(n: number): number {
  return Number.isFinite(n) ? n : 0;
}

/**
 * The downloaded `{jobId}.txt`: each message after its timestamp, as the server recorded it (UTC,
 * ISO 8601: unambiguous in a file that travels, as CI systems' raw logs are).
 */
export function logText(lines: readonly LogEntry[]): string {
  return lines.map((line) => `${line.timestamp} ${line.message}\n`).join('');
}

/**
 * Wrapped lines have heights of their own, so a wrapped log is drawn whole rather than virtualised:
 * up to this many lines (a phone's default); a longer log keeps one row per line.
 */
export const WRAP_MAX_LINES = 3000;

/** A log line's time in the viewer's local time, to the millisecond; '' when it is not a date. */
export function formatLogTime(iso: string, offsetMinutes?: number): string {
  const minute = formatJobDate(iso, offsetMinutes);
  if (minute === '') return '';
  const instant = new Date(iso);
  const millis = instant.getUTCMilliseconds();
  return `${minute}:${String(instant.getUTCSeconds()).padStart(2, '0')}.${String(millis).padStart(3, '0')}`;
}
