import { z } from 'zod';

/** The scheduler's settings (README "Configuration"). */
const schema = z.object({
  SCHEDULER_ENABLED: z.enum(['true', 'false']).default('true'),
  // Slots are whole seconds at the finest; checking every 10 s starts a daily or hourly run
  // within 10 s of its time while costing one small query per process.
  SCHEDULER_INTERVAL_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
});

export interface SchedulerSettings {
  enabled: boolean;
  intervalMs: number;
}

export function loadSchedulerSettings(source: NodeJS.ProcessEnv = process.env): SchedulerSettings {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    throw new Error(`Invalid scheduler configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return { enabled: parsed.data.SCHEDULER_ENABLED === 'true', intervalMs: parsed.data.SCHEDULER_INTERVAL_MS };
}
