import type { Db } from '../db/database';
import type { Hrefs } from '../policy/hrefs';

/** What a body is built with: the hrefs of its links, and the database for what a list's bodies read together (a dataset's tags). */
export interface BodyContext {
  db: Db;
  h: Hrefs;
}

/** A timestamp as ISO 8601 UTC; null stays null. */
export function iso(value: Date | string | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

export function isoRequired(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
