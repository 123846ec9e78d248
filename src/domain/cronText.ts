import { checkCron, SCHEDULE_PRESETS, scheduleChoiceOf as presetOf, type CronCheck } from './cron';

// The pipeline form's view of schedules (spec 001 §5): the four choices as the form names them,
// over the one set of cron rules in ./cron.ts that the server's save and the scheduler use too.

export type ScheduleChoice = 'manual' | 'hourly' | 'daily' | 'custom';
export type { CronCheck };

const choice = (preset: string) => preset.toLowerCase() as ScheduleChoice;

export const SCHEDULE_CHOICES: readonly { readonly value: ScheduleChoice; readonly label: string }[] = SCHEDULE_PRESETS.map((p) => ({
  value: choice(p.choice),
  label: p.label,
}));

/** The form's choice for a stored schedule; empty or absent means Manual. */
export function scheduleChoiceOf(schedule: string | null | undefined): ScheduleChoice {
  return choice(presetOf(schedule));
}

/** A typed cron as it will be stored (6 fields), or the message the form shows. */
export function toStoredCron(input: string | null | undefined): CronCheck {
  return checkCron(input ?? '', { atMostOncePerMinute: true });
}

/** The schedule sent on save: null for Manual, the preset for Hourly/Daily, the stored form of Custom. */
export function scheduleFor(picked: ScheduleChoice, custom: string): CronCheck | { readonly ok: true; readonly cron: null } {
  if (picked === 'custom') return toStoredCron(custom);
  const preset = SCHEDULE_PRESETS.find((p) => choice(p.choice) === picked);
  return { ok: true, cron: preset?.cron ?? null };
}
