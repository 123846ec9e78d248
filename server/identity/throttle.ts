import { createHash } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database';
import { MAX_DOUBLINGS, retryAfterSeconds, type ThrottlePolicy } from './throttle-policy';

/**
 * Throttle counters in the database (`idp_throttle`), so that every server process sees the same
 * ones. Each decision is one statement: an attempt is counted only if it is allowed, and the
 * database's row lock serialises concurrent attempts on one key, so a burst of parallel guesses
 * cannot all slip through before the first is counted.
 */
type ThrottleKind =
  | 'sign-in:account'
  | 'sign-in:pair'
  | 'sign-in:address'
  | 'reset:account'
  | 'verify:account'
  | 'link:account'
  | 'email-change:account'
  | 'mail:address'
  | 'sign-up:account'
  | 'sign-up:address';

/** An account seen from one client address ('sign-in:pair'); every other kind is keyed by one string. */
interface PairKey {
  account: string;
  address: string;
}
type ThrottleKey = string | PairKey;

/** `claimedAt`: the database's time of the counted attempt, exactly as stored (for refundAttempt). */
type Claim = { allowed: true; claimedAt: string } | { allowed: false; retryAfterSeconds: number };

/**
 * Keys are stored hashed: the table stays small whatever is typed into the email field (people
 * type passwords there too), and it does not keep a list of addresses that tried to sign in.
 */
export const hashKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

/** A pair is stored as `hash(account):hash(address)`: still no address or email in clear. */
const storedKey = (key: ThrottleKey) => (typeof key === 'string' ? hashKey(key) : `${hashKey(key.account)}:${hashKey(key.address)}`);

const seconds = (value: number) => sql`make_interval(secs => ${value}::float8)`;

/** delayAfter (throttle-policy.ts) in SQL, for a count `failures`; the two are tested to agree. */
export function sqlDelayAfter(failures: RawBuilder<unknown>, policy: ThrottlePolicy): RawBuilder<number> {
  const lockAfter = policy.lockAfter ?? null;
  return sql<number>`(CASE
    WHEN ${failures} < ${policy.freeAttempts}::int THEN 0::float8
    WHEN ${lockAfter}::int IS NOT NULL AND ${failures} >= ${lockAfter}::int THEN 0::float8
    ELSE least(${policy.baseDelaySeconds}::float8 * power(2::float8, least(${failures} - ${policy.freeAttempts}::int, ${MAX_DOUBLINGS}::int)), ${policy.maxDelaySeconds}::float8)
  END)`;
}

/**
 * Counts an attempt for (kind, key) if the policy allows one now, else changes nothing and says
 * how long to wait. The attempt is counted *before* the work it guards (a password check, a mail),
 * and given back by `refundAttempt` or `forgetAttempts` when that work succeeds.
 */
export async function claimAttempt(db: Db, kind: ThrottleKind, key: ThrottleKey, policy: ThrottlePolicy): Promise<Claim> {
  const keyHash = storedKey(key);
  const lockAfter = policy.lockAfter ?? null;
  const notLocked = sql`(t.locked_until IS NULL OR t.locked_until <= now())`;
  const windowStart = policy.windowFrom === 'first' ? sql`t.first_failure_at` : sql`t.last_failure_at`;
  const stale = sql`(${notLocked} AND ${windowStart} <= now() - ${seconds(policy.windowSeconds)})`;
  const next = sql`(CASE WHEN ${stale} THEN 1 ELSE t.failures + 1 END)`;
  const lockFrom = (count: RawBuilder<unknown>) => sql`(CASE WHEN ${lockAfter}::int IS NOT NULL AND ${count} >= ${lockAfter}::int THEN now() + ${seconds(policy.lockoutSeconds)} END)`;
  // No delay due means no time comparison: now() is the statement's transaction start, which for a
  // request that waited on this row's lock is earlier than the attempt that held it.
  const claimed = await sql<{ claimed_at: string }>`
    INSERT INTO idp_throttle AS t (kind, key, failures, first_failure_at, last_failure_at, locked_until)
    VALUES (${kind}, ${keyHash}, 1, now(), now(), ${lockFrom(sql`1`)})
    ON CONFLICT (kind, key) DO UPDATE SET
      failures = ${next},
      first_failure_at = CASE WHEN ${stale} THEN now() ELSE t.first_failure_at END,
      last_failure_at = now(),
      locked_until = ${lockFrom(next)}
    WHERE ${notLocked} AND (${stale} OR ${sqlDelayAfter(sql`t.failures`, policy)} = 0 OR t.last_failure_at + make_interval(secs => ${sqlDelayAfter(sql`t.failures`, policy)}) <= now())
    RETURNING t.last_failure_at::text AS claimed_at
  `.execute(db);
  const claimedAt = claimed.rows[0]?.claimed_at;
  if (claimedAt !== undefined) return { allowed: true, claimedAt };

  const row = await db
    .selectFrom('idp_throttle')
    .select(['failures', 'first_failure_at', 'last_failure_at', 'locked_until', sql<Date>`now()`.as('now')])
    .where('kind', '=', kind)
    .where('key', '=', keyHash)
    .executeTakeFirst();
  const state = row && { failures: row.failures, firstFailureAt: row.first_failure_at, lastFailureAt: row.last_failure_at, lockedUntil: row.locked_until };
  // At least a second: the database refused, so "now" must not be what the answer says.
  return { allowed: false, retryAfterSeconds: Math.max(1, retryAfterSeconds(state, row?.now ?? new Date(), policy)) };
}

/**
 * Gives back one counted attempt (a sign-in that succeeded from an address): the address keeps
 * the failures of others, but a person signing in correctly does not use up its budget. A lock
 * that this very attempt set goes too (the claim was allowed, so there was none before it); a
 * lock set by a later failure stays as long as the count still reaches it.
 */
export async function refundAttempt(db: Db, kind: ThrottleKind, key: ThrottleKey, policy: ThrottlePolicy, claimedAt: string): Promise<void> {
  const lockAfter = policy.lockAfter ?? null;
  await sql`
    UPDATE idp_throttle AS t SET
      failures = greatest(t.failures - 1, 0),
      locked_until = CASE
        WHEN t.last_failure_at = ${claimedAt}::timestamptz THEN NULL
        WHEN ${lockAfter}::int IS NOT NULL AND t.failures - 1 >= ${lockAfter}::int THEN t.locked_until
      END
    WHERE t.kind = ${kind} AND t.key = ${storedKey(key)}
  `.execute(db);
}

/** Clears the counter (a successful sign-in resets its account's failures). */
export async function forgetAttempts(db: Db, kind: ThrottleKind, key: ThrottleKey): Promise<void> {
  await db.deleteFrom('idp_throttle').where('kind', '=', kind).where('key', '=', storedKey(key)).execute();
}

/** Counters that no policy remembers any more (every window is far shorter than a day). */
export async function deleteStaleThrottles(db: Db): Promise<void> {
  await db
    .deleteFrom('idp_throttle')
    .where('last_failure_at', '<', sql<Date>`now() - interval '1 day'`)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', sql<Date>`now()`)]))
    .execute();
}
