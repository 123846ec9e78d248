import { CRON } from './constants';

// Pipeline schedules as the form shows them (spec 001 §5): Manual, Hourly, Daily or Custom. The
// stored cron has 6 fields, seconds first; a 5-field expression typed by a person gets the
// leading '0' seconds field. The check here is syntactic and per-field ranged, so the form can
// refuse '61 * * * *' before the server does; when the next run times are computed the view uses
// the same cron library as the scheduler.

export type ScheduleChoice = 'manual' | 'hourly' | 'daily' | 'custom';
export const SCHEDULE_CHOICES: readonly { readonly value: ScheduleChoice; readonly label: string }[] = [
  { value: 'manual', label: 'Manual' },
  { value: 'hourly', label: 'Hourly' },
  { value: 'daily', label: 'Daily' },
  { value: 'custom', label: 'Custom' },
];

export const CRON_MESSAGES = {
  required: 'Enter a cron expression',
  invalid: 'Enter a valid cron expression (minute hour day month weekday, or with seconds first)',
} as const;

/** Nobody types a schedule this long; longer text is refused before it is looked at. */
export const MAX_CRON_LENGTH = 200;

const spaces = (text: string): string => text.trim().split(/\s+/).join(' ');

/** The form's choice for a stored schedule; empty or absent means Manual. */
export function scheduleChoiceOf(schedule: string | null | undefined): ScheduleChoice {
  const text = typeof schedule === 'string' ? spaces(schedule) : '';
  if (text === '') return 'manual';
  if (text === CRON.hourly) return 'hourly';
  if (text === CRON.daily) return 'daily';
  return 'custom';
}

type FieldRule = { readonly min: number; readonly max: number; readonly names?: readonly string[]; readonly extras?: RegExp };

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
// seconds, minutes, hours, day of month, month, day of week (0 and 7 are Sunday)
const FIELDS: readonly FieldRule[] = [
  { min: 0, max: 59 },
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31, extras: /^(\?|L|LW|\d{1,2}W)$/ },
  { min: 1, max: 12, names: MONTHS },
  { min: 0, max: 7, names: DAYS, extras: /^(\?|[0-7]L|[0-7]#[1-5]|(SUN|MON|TUE|WED|THU|FRI|SAT)(L|#[1-5]))$/ },
];

function valueOf(text: string, rule: FieldRule): number | undefined {
  if (/^\d{1,2}$/.test(text)) {
    const n = Number(text);
    return n >= rule.min && n <= rule.max ? n : undefined;
  }
  const index = rule.names?.indexOf(text) ?? -1;
  if (index < 0) return undefined;
  // month names count from 1, day names from 0
  return rule.min === 1 ? index + 1 : index;
}

function isValidPart(part: string, rule: FieldRule): boolean {
  if (rule.extras?.test(part) === true) return true;
  const [range, step, ...rest] = part.split('/');
  if (rest.length > 0 || range === undefined || range === '') return false;
  if (step !== undefined && !(/^\d{1,2}$/.test(step) && Number(step) >= 1)) return false;
  if (range === '*') return true;
  const [from, to, ...more] = range.split('-');
  if (more.length > 0 || from === undefined) return false;
  const low = valueOf(from, rule);
  if (low === undefined) return false;
  if (to === undefined) return true;
  const high = valueOf(to, rule);
  return high !== undefined && high >= low;
}

function isValidField(field: string, rule: FieldRule): boolean {
  return field.split(',').every((part) => isValidPart(part, rule));
}

export type CronCheck = { readonly ok: true; readonly cron: string } | { readonly ok: false; readonly message: string };

/** A typed cron as it will be stored (6 fields), or the message the form shows. */
export function toStoredCron(input: string | null | undefined): CronCheck {
  if (typeof input !== 'string' || input.trim() === '') return { ok: false, message: CRON_MESSAGES.required };
  if (input.length > MAX_CRON_LENGTH) return { ok: false, message: CRON_MESSAGES.invalid };
  const fields = spaces(input).toUpperCase().split(' ');
  const six = fields.length === 5 ? ['0', ...fields] : fields;
  if (six.length !== 6) return { ok: false, message: CRON_MESSAGES.invalid };
  const valid = six.every((field, i) => isValidField(field, FIELDS[i]!));
  return valid ? { ok: true, cron: six.join(' ') } : { ok: false, message: CRON_MESSAGES.invalid };
}

/** The schedule sent on save: null for Manual, the preset for Hourly/Daily, the stored form of Custom. */
export function scheduleFor(choice: ScheduleChoice, custom: string): CronCheck | { readonly ok: true; readonly cron: null } {
  switch (choice) {
    case 'manual':
      return { ok: true, cron: null };
    case 'hourly':
      return { ok: true, cron: CRON.hourly };
    case 'daily':
      return { ok: true, cron: CRON.daily };
    case 'custom':
      return toStoredCron(custom);
  }
}
