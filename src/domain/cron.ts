import { Cron } from 'croner';

// Pipeline schedules (spec 001 §5, §9): a 6-field cron, seconds first, evaluated in UTC. The SPA's
// Hourly and Daily choices store HOURLY_CRON and DAILY_CRON; Custom stores what the user typed,
// with a leading '0' seconds field added to a 5-field expression (toSixFieldCron).

export const HOURLY_CRON = '0 0 * * * *';
export const DAILY_CRON = '0 0 0 * * *';
export const CRON_MESSAGES = {
  fields: 'must be a cron expression of 6 fields: second minute hour day-of-month month day-of-week',
  invalid: 'is not a valid cron expression',
  never: 'never matches a date',
} as const;

const MAX_LENGTH = 200;

/** Fields split on any whitespace; a blank schedule has none. */
function fieldsOf(expression: string): string[] {
  return expression.trim().split(/\s+/).filter((f) => f !== '');
}

/** A blank schedule means manual runs only. */
export function isManualSchedule(schedule: string | null | undefined): boolean {
  return schedule === null || schedule === undefined || schedule.trim() === '';
}

function parse(expression: string): Cron | undefined {
  try {
    return new Cron(expression, { paused: true, timezone: 'UTC' });
  } catch {
    return undefined;
  }
}

/** The field message for a stored schedule, or undefined when it may be stored (blank is manual). */
export function cronError(schedule: string | null | undefined): string | undefined {
  if (isManualSchedule(schedule)) return undefined;
  const text = schedule ?? '';
  if (text.length > MAX_LENGTH || fieldsOf(text).length !== 6) return CRON_MESSAGES.fields;
  const cron = parse(fieldsOf(text).join(' '));
  if (!cron) return CRON_MESSAGES.invalid;
  // '0 0 0 31 2 *' parses but never fires: a schedule that never runs is a mistake worth naming.
  if (cron.nextRun(new Date(Date.UTC(2000, 0, 1))) === null) return CRON_MESSAGES.never;
  return undefined;
}

/** The stored form: fields joined by one space; a 5-field expression gets a leading '0' seconds field. */
export function toSixFieldCron(expression: string): string {
  const fields = fieldsOf(expression);
  return (fields.length === 5 ? ['0', ...fields] : fields).join(' ');
}

/** The next `count` run times after `from` (none for a manual or invalid schedule). */
export function nextRuns(schedule: string | null | undefined, count: number, from: Date = new Date()): Date[] {
  if (cronError(schedule) !== undefined || isManualSchedule(schedule)) return [];
  const cron = parse(fieldsOf(schedule ?? '').join(' '));
  const n = Math.max(0, Math.min(Math.floor(count) || 0, 100));
  return cron && n > 0 ? cron.nextRuns(n, from) : [];
}
