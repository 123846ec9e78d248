/**
 * The rules of sign-in throttling and mail throttling, as pure data and arithmetic. The database
 * store (throttle.ts) applies them atomically; this module is what the rules *are*.
 *
 * A counter per (kind, key) remembers attempts that count against it. An attempt is allowed when
 * the key is not locked and the delay earned by the attempts so far has passed since the last one.
 */
export interface ThrottlePolicy {
  /** attempts allowed before any delay */
  freeAttempts: number;
  /** the first delay; it doubles with each further attempt */
  baseDelaySeconds: number;
  maxDelaySeconds: number;
  /** the count at which the key is locked for `lockoutSeconds`; undefined: never locked, only delayed */
  lockAfter: number | undefined;
  lockoutSeconds: number;
  /** the counter is forgotten this long after its first or its last attempt */
  windowSeconds: number;
  /**
   * 'last': forgotten only after a quiet period (consecutive failures of one account);
   * 'first': a fixed window from the first attempt (N per window, for addresses and mail).
   */
  windowFrom: 'first' | 'last';
}

export interface ThrottleState {
  failures: number;
  firstFailureAt: Date;
  lastFailureAt: Date;
  lockedUntil: Date | null;
}

interface ThrottleSettings {
  lockoutSeconds: number;
  /** base of the growing delay after the free sign-in attempts of an account; 0 turns delays off */
  delaySeconds: number;
  addressMaxFailures: number;
}

/** failed sign-ins of one account from one client address before the growing delay */
const ACCOUNT_FREE_FAILURES = 5;
/** failed sign-ins of one account from one client address at which that pair is locked */
const ACCOUNT_LOCK_AFTER = 10;
/** failed sign-ins of one account from all addresses together before every attempt on it slows down */
const ACCOUNT_GLOBAL_FREE_FAILURES = 20;
const THROTTLE_WINDOW_SECONDS = 15 * 60;
const MAX_SIGN_IN_DELAY_SECONDS = 60;
export const MAX_DOUBLINGS = 30;
const MAX_RETRY_SECONDS = 7 * 24 * 3600;
/** mail requests per address (reset, resend and sign-in links together) before it is locked */
const MAIL_ADDRESS_LIMIT = 30;
/** mail requests per account before the growing delay, which starts at one minute */
const MAIL_ACCOUNT_FREE = 3;
/** sign-ups from one client address per hour (an office behind one NAT onboarding its team fits) */
const SIGN_UP_ADDRESS_LIMIT = 20;
const HOUR_SECONDS = 60 * 60;

export interface ThrottlePolicies {
  /** one account from one client address: the delay and the lock fall on that pair only */
  signInPair: ThrottlePolicy;
  /** one account from everywhere: a slowdown that never locks, against guesses spread over many addresses */
  signInAccount: ThrottlePolicy;
  signInAddress: ThrottlePolicy;
  mailAccount: ThrottlePolicy;
  mailAddress: ThrottlePolicy;
  signUpAccount: ThrottlePolicy;
  signUpAddress: ThrottlePolicy;
}

export function throttlePolicies(settings: ThrottleSettings): ThrottlePolicies {
  const { lockoutSeconds, delaySeconds, addressMaxFailures } = settings;
  // Mail to one address: three at once, then from one minute doubling to fifteen.
  const mailAccount: ThrottlePolicy = {
    freeAttempts: MAIL_ACCOUNT_FREE,
    baseDelaySeconds: 60,
    maxDelaySeconds: 15 * 60,
    lockAfter: undefined,
    lockoutSeconds: 0,
    windowSeconds: HOUR_SECONDS,
    windowFrom: 'first',
  };
  return {
    // The lock is per (account, client address): an attacker locks only their own attempts on the
    // account, never the owner signing in from elsewhere.
    signInPair: {
      freeAttempts: ACCOUNT_FREE_FAILURES,
      baseDelaySeconds: delaySeconds,
      maxDelaySeconds: MAX_SIGN_IN_DELAY_SECONDS,
      lockAfter: ACCOUNT_LOCK_AFTER,
      lockoutSeconds,
      windowSeconds: THROTTLE_WINDOW_SECONDS,
      windowFrom: 'last',
    },
    // Guesses from many addresses still meet one counter, but it only slows (at most a minute
    // between attempts), never locks; whoever it holds up signs in through a mailed link.
    signInAccount: {
      freeAttempts: ACCOUNT_GLOBAL_FREE_FAILURES,
      baseDelaySeconds: delaySeconds,
      maxDelaySeconds: MAX_SIGN_IN_DELAY_SECONDS,
      lockAfter: undefined,
      lockoutSeconds: 0,
      windowSeconds: THROTTLE_WINDOW_SECONDS,
      windowFrom: 'last',
    },
    // No growing delay per address: one office behind one NAT shares it, and a delay earned by
    // one person's typos would fall on everybody. Only the lock, after many failures.
    signInAddress: {
      freeAttempts: addressMaxFailures,
      baseDelaySeconds: 0,
      maxDelaySeconds: 0,
      lockAfter: addressMaxFailures,
      lockoutSeconds,
      windowSeconds: THROTTLE_WINDOW_SECONDS,
      windowFrom: 'first',
    },
    mailAccount,
    mailAddress: {
      freeAttempts: MAIL_ADDRESS_LIMIT,
      baseDelaySeconds: 0,
      maxDelaySeconds: 0,
      lockAfter: MAIL_ADDRESS_LIMIT,
      lockoutSeconds: THROTTLE_WINDOW_SECONDS,
      windowSeconds: THROTTLE_WINDOW_SECONDS,
      windowFrom: 'first',
    },
    // A sign-up mails the address typed in (a verification link, or a note to its owner), so it
    // is throttled as mail to that address, known or not.
    signUpAccount: mailAccount,
    signUpAddress: {
      freeAttempts: SIGN_UP_ADDRESS_LIMIT,
      baseDelaySeconds: 0,
      maxDelaySeconds: 0,
      lockAfter: SIGN_UP_ADDRESS_LIMIT,
      lockoutSeconds: HOUR_SECONDS,
      windowSeconds: HOUR_SECONDS,
      windowFrom: 'first',
    },
  };
}

/** Seconds that must pass after the last counted attempt before the next, given `failures` so far. */
export function delayAfter(failures: number, policy: ThrottlePolicy): number {
  if (!(failures >= policy.freeAttempts)) return 0;
  // At and beyond the lock the lock governs; there is nothing to wait for once it has run out.
  if (policy.lockAfter !== undefined && failures >= policy.lockAfter) return 0;
  // The exponent is capped so a huge count cannot overflow to Infinity (throttle.ts does the same in SQL).
  const steps = Math.min(failures - policy.freeAttempts, MAX_DOUBLINGS);
  return Math.min(policy.baseDelaySeconds * 2 ** steps, policy.maxDelaySeconds);
}

/** Whether the counter has been forgotten at `now` (it then starts again from nothing). */
export function isStale(state: ThrottleState, now: Date, policy: ThrottlePolicy): boolean {
  if (state.lockedUntil && state.lockedUntil > now) return false;
  const from = policy.windowFrom === 'first' ? state.firstFailureAt : state.lastFailureAt;
  return from.getTime() <= now.getTime() - policy.windowSeconds * 1000;
}

/** Whole seconds until the next attempt is allowed; 0 when it is allowed now. */
export function retryAfterSeconds(state: ThrottleState | undefined, now: Date, policy: ThrottlePolicy): number {
  if (!state || isStale(state, now, policy)) return 0;
  const lockedFor = state.lockedUntil ? state.lockedUntil.getTime() - now.getTime() : 0;
  const delayedFor = state.lastFailureAt.getTime() + delayAfter(state.failures, policy) * 1000 - now.getTime();
  const wait = Math.max(lockedFor, delayedFor, 0);
  return wait > 0 ? Math.ceil(wait / 1000) : 0;
}

/** "Try again in 1 second." / "… in 15 minutes." — rounded up, never "0". */
export function tryAgainIn(seconds: number): string {
  // Clamped to the longest lockout configuration allows, so no number ever prints as "1e+21".
  const whole = Number.isFinite(seconds) ? Math.min(Math.max(1, Math.ceil(seconds)), MAX_RETRY_SECONDS) : 1;
  if (whole < 60) return `Try again in ${whole} ${whole === 1 ? 'second' : 'seconds'}.`;
  const minutes = Math.ceil(whole / 60);
  return `Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}

/**
 * The account key of an email: what the user lookup treats as the same address must land on the
 * same counter, or a change of case would escape the lock. NFKC and full Unicode lower-casing fold
 * at least as much as PostgreSQL's lower(); folding more only makes two addresses share a counter.
 */
export function accountKey(email: string): string {
  return email.normalize('NFKC').trim().toLowerCase();
}
