import { Cron } from 'croner';
import { DAILY_CRON, HOURLY_CRON } from './pipelineConstants';

// Pipeline schedules (spec 001 §5): Manual, Hourly, Daily or a custom cron, stored with 6 fields
// (seconds first). The form, the row and the server's scheduler all read schedules through these
// rules, so "valid", "next runs" and "the slot that is due" mean the same thing everywhere.

type ScheduleChoice = 'MANUAL' | 'HOURLY' | 'DAILY' | 'CUSTOM';

interface SchedulePreset {
  choice: ScheduleChoice;
  label: string;
  /** the stored cron; null for Manual (no schedule), undefined for Custom (the user types it) */
  cron: string | null | undefined;
}

export { DAILY_CRON, HOURLY_CRON };

export const SCHEDULE_PRESETS: readonly SchedulePreset[] = [
  { choice: 'MANUAL', label: 'Manual', cron: null },
  { choice: 'HOURLY', label: 'Hourly', cron: HOURLY_CRON },
  { choice: 'DAILY', label: 'Daily', cron: DAILY_CRON },
  { choice: 'CUSTOM', label: 'Custom', cron: undefined },
];

/** Schedules are read in UTC until a workspace can choose its own zone. */
const SCHEDULE_TIMEZONE = 'UTC';

/** Longer text is refused before the parser sees it: no real schedule comes near this. */
export const MAX_CRON_LENGTH = 200;

const FIELD_NAMES = 'second minute hour day-of-month month day-of-week';

/** The form's choice for a stored schedule (an empty or absent one is Manual). */
export function scheduleChoiceOf(schedule: string | null | undefined): ScheduleChoice {
  const text = normaliseSpaces(schedule ?? '');
  if (text === '') return 'MANUAL';
  if (text === HOURLY_CRON) return 'HOURLY';
  if (text === DAILY_CRON) return 'DAILY';
  return 'CUSTOM';
}

export type CronCheck = { ok: true; cron: string } | { ok: false; message: string };

interface CronRules {
  /**
   * The form's rule: the seconds field is one number, so a pipeline runs at most once a minute
   * (a schedule every second would fill the history with SKIPPED jobs). The scheduler itself
   * accepts any valid 6-field cron.
   */
  atMostOncePerMinute?: boolean;
  timezone?: string;
}

/**
 * Checks a schedule as typed: 6 fields, or 5 to which the seconds field '0' is added (the stored
 * form has 6, spec 001 §5). Answers the stored text, or a message for the pipeline form.
 */
export function checkCron(input: unknown, rules: CronRules = {}): CronCheck {
  if (typeof input !== 'string') return { ok: false, message: 'The schedule must be a cron expression.' };
  if (input.length > MAX_CRON_LENGTH) return { ok: false, message: `A cron expression is at most ${MAX_CRON_LENGTH} characters.` };
  // Only printable ASCII and spaces: anything else would be an invisible difference in a stored schedule.
  if (/[^\x20-\x7e\t]/.test(input)) return { ok: false, message: 'A cron expression contains only letters, digits, spaces and * , - / ? # L W.' };
  const text = normaliseSpaces(input);
  if (text === '') return { ok: false, message: 'Enter a cron expression, for example 0 0 9 * * MON-FRI.' };
  const fields = text.split(' ');
  if (fields.length !== 5 && fields.length !== 6) {
    return { ok: false, message: `A cron expression has 6 fields (${FIELD_NAMES}), or 5 without the seconds; this one has ${fields.length}.` };
  }
  const cron = fields.length === 5 ? `0 ${text}` : text;
  if (rules.atMostOncePerMinute && !/^[0-5]?\d$/.test(cron.split(' ')[0] ?? '')) {
    return { ok: false, message: 'The seconds field must be a single number (0-59): a pipeline runs at most once a minute.' };
  }
  let first: Date | null;
  try {
    first = cronOf(cron, rules.timezone).nextRun(new Date(0));
  } catch (error) {
    return { ok: false, message: `Invalid cron expression: ${reason(error)}` };
  }
  if (first === null) return { ok: false, message: 'This schedule never runs (no date matches it).' };
  return { ok: true, cron };
}

/** The next `count` run times after `from` (exclusive); empty for an invalid or absent schedule. */
export function nextRunTimes(schedule: string | null | undefined, count = 3, from: Date = new Date(), timezone?: string): Date[] {
  const parsed = tryCron(schedule, timezone);
  const n = Math.max(0, Math.min(Math.floor(count) || 0, 100));
  if (!parsed || n === 0 || Number.isNaN(from.getTime())) return [];
  try {
    return parsed.nextRuns(n, from);
  } catch {
    return [];
  }
}

/**
 * The slot that is due at `now`: the latest run time at or before it, provided it is later than
 * `after` (the last slot already taken, or the moment the schedule took effect). Earlier missed
 * slots are never returned: a server that was down runs the latest one once, not a backlog.
 */
export function dueSlot(schedule: string | null | undefined, now: Date, after: Date | null, timezone?: string): Date | null {
  const parsed = tryCron(schedule, timezone);
  if (!parsed || Number.isNaN(now.getTime())) return null;
  let latest: Date | undefined;
  try {
    latest = parsed.previousRuns(1, new Date(now.getTime() + 1))[0];
  } catch {
    return null;
  }
  if (!latest || latest.getTime() > now.getTime()) return null;
  if (after && latest.getTime() <= after.getTime()) return null;
  return latest;
}

/** A valid schedule's parser, or undefined (absent, Manual or invalid). */
function tryCron(schedule: string | null | undefined, timezone: string | undefined): Cron | undefined {
  if (typeof schedule !== 'string') return undefined;
  const checked = checkCron(schedule, timezone === undefined ? {} : { timezone });
  if (!checked.ok) return undefined;
  try {
    return cronOf(checked.cron, timezone);
  } catch {
    return undefined;
  }
}

function cronOf(cron: string, timezone: string | undefined): Cron {
  // No callback and paused: croner only computes times here, it never starts a timer.
  return new Cron(cron, { paused: true, mode: '6-part', timezone: timezone ?? SCHEDULE_TIMEZONE });
}

function normaliseSpaces(text: string): string {
  return text.trim().split(/\s+/).filter(Boolean).join(' ');
}

function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/^CronPattern:\s*/, '').replace(/^\w/, (c) => c.toLowerCase());
}

type ScheduleCheck = { ok: true; schedule: string | null } | { ok: false; message: string };

/** A pipeline's schedule as saved: blank means manual runs only (null); otherwise the form's rules of checkCron. */
export function checkSchedule(input: string | null | undefined): ScheduleCheck {
  if (input === null || input === undefined || input.trim() === '') return { ok: true, schedule: null };
  const check = checkCron(input, { atMostOncePerMinute: true });
  return check.ok ? { ok: true, schedule: check.cron } : check;
}
