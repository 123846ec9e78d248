// Business constants and limits of spec 000 section 9, with the small rules that use them.

export const PAGE_SIZES = { feed: 10, workspaces: 99, dataComponents: 99, comments: 6 } as const;

export const NOTIFICATION_POLL_MS = 90_000;
export const LOG_POLL_MS = 5_000;
export const RETRY_COUNT = 3;
export const COPIED_TOAST_MS = 3_000;
export const PROFILE_TOAST_MS = 6_000;

export const BREAKPOINTS = { small: 768, mediumMax: 991, sidebar: 1200 } as const;

/** Six-field cron, leading seconds. */
export const CRON = { hourly: '0 0 * * * *', daily: '0 0 0 * * *' } as const;

export const JOB_DATE_FORMAT = 'YYYY-MM-DD HH:mm';

/** Dark slate blue. */
export const THEME_PRIMARY = '#483D8B';

export const DEFAULT_HOME_PAGE = 'feed';

/** Cookie max age in whole seconds: the token's lifetime (exp - iat), never negative. */
export function sessionCookieMaxAge(exp: number, iat: number): number {
  const lifetime = exp - iat;
  return Number.isFinite(lifetime) && lifetime > 0 ? Math.floor(lifetime) : 0;
}

/**
 * Error-report tracing is on only for a finite sample rate above 0. Environment values arrive as
 * text, so a numeric string counts; anything else (blank, 'abc', NaN, Infinity) turns tracing off.
 */
export function tracingEnabled(sampleRate: unknown): boolean {
  const rate =
    typeof sampleRate === 'number' ? sampleRate : typeof sampleRate === 'string' && sampleRate.trim() !== '' ? Number(sampleRate) : NaN;
  return Number.isFinite(rate) && rate > 0;
}

const pad = (value: number, width: number): string => String(value).padStart(width, '0');

/**
 * 'YYYY-MM-DD HH:mm' of an instant the server gives in UTC, shown in local time (spec 000/001/002:
 * "UTC shown in local time"); '' when the text is not a date. `offsetMinutes` east of UTC is the
 * viewer's own at that instant unless given (0 for a time that is meant in UTC, such as a cron's).
 */
export function formatJobDate(iso: string | null | undefined, offsetMinutes?: number): string {
  if (typeof iso !== 'string' || iso.trim() === '') return '';
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) return '';
  const offset = offsetMinutes ?? -instant.getTimezoneOffset();
  const date = new Date(instant.getTime() + offset * 60_000);
  const year = date.getUTCFullYear();
  if (Number.isNaN(date.getTime()) || year < 0 || year > 9999) return '';
  return `${pad(year, 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)} ${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}`;
}

export type SidebarState = 'expanded' | 'collapsed';

/**
 * Forced collapsed below 1200 px; at and above, the remembered choice, expanded by default.
 * `remembered` may be raw local-storage text: only 'collapsed' collapses.
 */
export function sidebarState({ width, remembered }: { width: number; remembered?: string | null | undefined }): SidebarState {
  if (!(width >= BREAKPOINTS.sidebar)) return 'collapsed';
  return remembered === 'collapsed' ? 'collapsed' : 'expanded';
}

export type ScreenSize = 'small' | 'medium' | 'large';

/** Small under 768 px, medium 768 to 991 px, large above. */
export function screenSize(width: number): ScreenSize {
  if (!(width >= BREAKPOINTS.small)) return 'small';
  return width < BREAKPOINTS.mediumMax + 1 ? 'medium' : 'large';
}
