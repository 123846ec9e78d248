import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../db/database';
import { storeDbOf } from '../db/storeDatabase';
import { storeSchemaName } from './storeRole';

// How much a workspace's default store may hold (STORE_MAX_MB, README "Configuration"), and how
// much it holds: every table of its schema with its indexes and TOAST, as the database counts them.
// The runner's bridge refuses a load that would take the store past the limit (bridge.ts).

const settings = z.object({ STORE_MAX_MB: z.coerce.number().int().min(1).max(100_000_000).default(10_240) });

/** STORE_MAX_MB of `env`; a value that is not a whole number of MB stops the server, never allows more. */
export function storeMaxMb(env: NodeJS.ProcessEnv = process.env): number {
  const parsed = settings.safeParse(env);
  if (!parsed.success) throw new Error(`Invalid STORE_MAX_MB: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  return parsed.data.STORE_MAX_MB;
}

/** Bytes the workspace's store takes on disk now. */
export async function storeSizeBytes(db: Db, workspaceId: string): Promise<number> {
  const { rows } = await sql<{ bytes: number }>`
    SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::float8 AS bytes
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = ${storeSchemaName(workspaceId)} AND c.relkind IN ('r', 'm', 'p')`.execute(storeDbOf(db));
  return Number(rows[0]?.bytes ?? 0);
}

class StoreFull extends Error {
  /** `grown`: the store is past the limit already (a load measured as it ran), not about to be */
  constructor(limitMb: number, usedBytes: number, grown = false) {
    super(`The workspace's data store ${grown ? 'has grown' : 'would grow'} past its limit of ${limitMb} MB (STORE_MAX_MB); it holds ${(usedBytes / 1_048_576).toFixed(1)} MB.${grown ? ' The rest of this load was stopped.' : ''} Remove tables or rows, or raise STORE_MAX_MB.`);
    this.name = 'StoreFull';
  }
}

/** Throws StoreFull when `incomingBytes` more would take the store past `limitMb`. */
export async function requireStoreRoom(db: Db, workspaceId: string, limitMb: number, incomingBytes: number): Promise<void> {
  const used = await storeSizeBytes(db, workspaceId);
  if (used + incomingBytes > limitMb * 1_048_576) throw new StoreFull(limitMb, used);
}

/** How often a load the bridge does not see (Meltano's loaders through the store proxy) is measured. */
const STORE_WATCH_MS = 2_000;

/**
 * Measures the workspace's store every `intervalMs` and calls `onFull` once when it holds more than
 * `limitMb`; for loads that reach the store directly, where no batch passes the bridge's check. A
 * soft limit: what was committed before the measure stays. Returns the stop.
 */
export function watchStoreRoom(db: Db, workspaceId: string, limitMb: number, onFull: (full: StoreFull) => void, onError: (error: unknown) => void, intervalMs = STORE_WATCH_MS): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const check = async () => {
    try {
      const used = await storeSizeBytes(db, workspaceId);
      if (stopped) return;
      if (used > limitMb * 1_048_576) {
        stopped = true;
        onFull(new StoreFull(limitMb, used, true));
        return;
      }
    } catch (error) {
      if (!stopped) onError(error);
    }
    if (!stopped) schedule();
  };
  const schedule = () => {
    timer = setTimeout(() => void check(), intervalMs);
    timer.unref();
  };
  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
