import { z } from 'zod';

/** The runner's settings (README "Configuration"); each has a default that suits one laptop. */
const schema = z.object({
  RUNNER_ENABLED: z.enum(['true', 'false']).default('true'),
  RUNNER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  RUNNER_LEASE_SECONDS: z.coerce.number().min(1).max(3600).default(30),
  RUNNER_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  RUNNER_RETRY_DELAY_SECONDS: z.coerce.number().min(0).max(3600).default(10),
  RUNNER_KILL_GRACE_SECONDS: z.coerce.number().min(0).max(600).default(5),
  RUNNER_SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(3600).default(10),
});

export interface RunnerSettings {
  enabled: boolean;
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  retryBaseMs: number;
  killGraceMs: number;
  shutdownGraceMs: number;
}

export function loadRunnerSettings(source: NodeJS.ProcessEnv = process.env): RunnerSettings {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    throw new Error(`Invalid runner configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const env = parsed.data;
  return {
    enabled: env.RUNNER_ENABLED === 'true',
    concurrency: env.RUNNER_CONCURRENCY,
    leaseMs: env.RUNNER_LEASE_SECONDS * 1000,
    pollMs: env.RUNNER_POLL_MS,
    retryBaseMs: env.RUNNER_RETRY_DELAY_SECONDS * 1000,
    killGraceMs: env.RUNNER_KILL_GRACE_SECONDS * 1000,
    shutdownGraceMs: env.RUNNER_SHUTDOWN_GRACE_SECONDS * 1000,
  };
}
