import type { Hrefs } from '../policy/hrefs';

/** What a body is built with: the hrefs of its links. */
export interface BodyContext {
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
