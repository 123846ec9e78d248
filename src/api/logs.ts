import { z } from 'zod';
import type { HalLike } from '../domain/hal';
import { logText } from '../domain/logView';
import { parseWith } from '../domain/parse';
import { REL } from '../domain/relations';
import { logEntrySchema, type LogEntry } from '../domain/resources';
import type { ApiClient, RequestOptions } from './client';
import { ApiFailure } from './errors';

// A job's log (spec 001 §7): the 'logs' link with ?sequence=N answers the lines after N as
// newline-delimited JSON, or 204 when there is nothing new. The HTTP layer may hand the body over
// as text (several lines) or already parsed (exactly one line), so both are read here.

const NDJSON = 'application/stream+json';
/** Lines per request when reading a whole log (the server's cap is 10,000). */
const LOG_DOWNLOAD_PAGE = 10_000;

type LogPageQuery = { readonly sequence: number; readonly size?: number | undefined };

/** The lines after `sequence`, oldest first; [] when the server has nothing new. A malformed line rejects with a parse failure. */
export async function readLogPage(client: ApiClient, job: HalLike, query: LogPageQuery, options: RequestOptions = {}): Promise<LogEntry[]> {
  const body: unknown = await client.follow(job, REL.logs, {
    ...options,
    schema: z.unknown(),
    headers: { ...options.headers, Accept: NDJSON },
    query: { sequence: query.sequence, ...(query.size === undefined ? {} : { size: query.size }), ...options.query },
  });
  return parseLogBody(body);
}

export function parseLogBody(body: unknown): LogEntry[] {
  if (body === undefined || body === null || body === '') return [];
  if (typeof body !== 'string') return [entryOf(body, 1)];
  const lines: LogEntry[] = [];
  body.split('\n').forEach((text, index) => {
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw parseFailure(index + 1, 'not JSON');
    }
    lines.push(entryOf(value, index + 1));
  });
  return lines;
}

function entryOf(value: unknown, lineNumber: number): LogEntry {
  const parsed = parseWith(logEntrySchema, value);
  if (!parsed.ok) throw parseFailure(lineNumber, parsed.issues[0]?.message ?? 'not a log entry');
  return parsed.value;
}

function parseFailure(lineNumber: number, why: string): ApiFailure {
  return new ApiFailure({ kind: 'parse', message: `Invalid log line ${String(lineNumber)}: ${why}`, issues: [{ field: `line ${String(lineNumber)}`, message: why }] });
}

/** The whole log as the text of `{jobId}.txt`, read page by page. */
export async function downloadLogText(client: ApiClient, job: HalLike, options: RequestOptions = {}): Promise<string> {
  const parts: string[] = [];
  let sequence = 0;
  for (;;) {
    const page = await readLogPage(client, job, { sequence, size: LOG_DOWNLOAD_PAGE }, options);
    const last = page[page.length - 1];
    if (last === undefined || last.sequence <= sequence) break;
    parts.push(logText(page));
    sequence = last.sequence;
    if (page.length < LOG_DOWNLOAD_PAGE) break;
  }
  return parts.join('');
}

/** The download's file name (spec 001 §7). */
export function logFileName(jobId: string): string {
  return `${jobId.replace(/[^A-Za-z0-9._-]/g, '_')}.txt`;
}
