import { z } from 'zod';
import { parseAllowList } from '../security/netPolicy';
import type { JobLimits, NetworkPolicy } from './executor';

const count = (min: number, max: number, fallback: number) => z.coerce.number().int().min(min).max(max).default(fallback);

/** The runner's settings (README "Configuration"); each has a default that suits one laptop. */
const schema = z.object({
  RUNNER_ENABLED: z.enum(['true', 'false']).default('true'),
  RUNNER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  RUNNER_LEASE_SECONDS: z.coerce.number().min(1).max(3600).default(30),
  RUNNER_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  RUNNER_RETRY_DELAY_SECONDS: z.coerce.number().min(0).max(3600).default(10),
  RUNNER_KILL_GRACE_SECONDS: z.coerce.number().min(0).max(600).default(5),
  RUNNER_SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(3600).default(10),
  // The job sandbox (server/runner/README.md). `auto` takes bubblewrap where found, else unshare.
  RUNNER_SANDBOX: z.enum(['auto', 'bwrap', 'unshare', 'off']).default('auto'),
  RUNNER_NETWORK: z.enum(['public', 'none']).default('public'),
  RUNNER_ALLOWED_HOSTS: z
    .string()
    .default('')
    // read as tap-postgres reads it (security/netPolicy.ts): a typo stops the server, never allows more
    .superRefine((text, ctx) => {
      const parsed = parseAllowList(text);
      if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error });
    })
    .transform((text) => text.split(',').map((h) => h.trim()).filter((h) => h.length > 0))
    .pipe(z.array(z.string()).max(100)),
  RUNNER_MEMORY_MB: count(64, 1_048_576, 1024),
  RUNNER_CPU_SECONDS: count(1, 7 * 24 * 3600, 3600),
  RUNNER_MAX_PROCESSES: count(16, 100_000, 256),
  RUNNER_MAX_OPEN_FILES: count(64, 1_048_576, 1024),
  RUNNER_MAX_FILE_MB: count(1, 1_048_576, 1024),
  RUNNER_MAX_LOG_MB: count(1, 100_000, 50),
  // What each workspace's project directory may take on disk (diskQuota.ts), jobs' files included.
  WORKSPACE_DISK_QUOTA_MB: count(1, 100_000_000, 2048),
});

export type SandboxMode = 'auto' | 'bwrap' | 'unshare' | 'off';

export interface SandboxSettings {
  mode: SandboxMode;
  network: NetworkPolicy;
  limits: JobLimits;
}

export interface RunnerSettings {
  enabled: boolean;
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  retryBaseMs: number;
  killGraceMs: number;
  shutdownGraceMs: number;
  /** WORKSPACE_DISK_QUOTA_MB: what a workspace's project directory may take on disk */
  diskQuotaMb: number;
  sandbox: SandboxSettings;
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
    diskQuotaMb: env.WORKSPACE_DISK_QUOTA_MB,
    sandbox: {
      mode: env.RUNNER_SANDBOX,
      network: { mode: env.RUNNER_NETWORK, allowedHosts: env.RUNNER_ALLOWED_HOSTS },
      limits: {
        memoryMb: env.RUNNER_MEMORY_MB,
        cpuSeconds: env.RUNNER_CPU_SECONDS,
        processes: env.RUNNER_MAX_PROCESSES,
        openFiles: env.RUNNER_MAX_OPEN_FILES,
        fileSizeMb: env.RUNNER_MAX_FILE_MB,
        logMb: env.RUNNER_MAX_LOG_MB,
      },
    },
  };
}
