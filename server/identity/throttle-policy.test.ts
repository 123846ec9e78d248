import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accountKey, delayAfter, isStale, retryAfterSeconds, throttlePolicies, tryAgainIn, type ThrottlePolicy, type ThrottleState } from './throttle-policy';

const defaults = throttlePolicies({ lockoutSeconds: 900, delaySeconds: 1, addressMaxFailures: 50 });

const policyArb: fc.Arbitrary<ThrottlePolicy> = fc.record({
  freeAttempts: fc.integer({ min: 0, max: 100 }),
  baseDelaySeconds: fc.double({ min: 0, max: 3600, noNaN: true }),
  maxDelaySeconds: fc.double({ min: 0, max: 86_400, noNaN: true }),
  lockAfter: fc.option(fc.integer({ min: 1, max: 1000 }), { nil: undefined }),
  lockoutSeconds: fc.integer({ min: 1, max: 7 * 86_400 }),
  windowSeconds: fc.integer({ min: 1, max: 86_400 }),
  windowFrom: fc.constantFrom('first' as const, 'last' as const),
});

const hostileCount = fc.oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.constantFrom(Number.NaN, Infinity, -Infinity, Number.MAX_SAFE_INTEGER, 0.5, -0));

describe('the sign-in rules by default', () => {
  it('lets one account from one address fail 5 times, then waits 1, 2, 4, 8, 16 s, and locks that pair at 10', () => {
    const pair = defaults.signInPair;
    expect(Array.from({ length: 12 }, (_, failures) => delayAfter(failures, pair))).toEqual([0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 0, 0]);
    expect(pair.lockAfter).toBe(10);
    expect(pair.lockoutSeconds).toBe(900);
    expect(pair.windowFrom).toBe('last');
  });

  it('slows an account attacked from everywhere after 20 failures, to at most a minute, and never locks it', () => {
    const account = defaults.signInAccount;
    expect([19, 20, 21, 22, 25, 26, 1000].map((n) => delayAfter(n, account))).toEqual([0, 1, 2, 4, 32, 60, 60]);
    expect(account.lockAfter).toBeUndefined();
    fc.assert(
      fc.property(hostileCount, (failures) => {
        expect(delayAfter(failures, account)).toBeLessThanOrEqual(60);
      }),
    );
    // LOGIN_DELAY_SECONDS=0 turns the slowdown off with the pair's delay
    const off = throttlePolicies({ lockoutSeconds: 900, delaySeconds: 0, addressMaxFailures: 50 }).signInAccount;
    expect(delayAfter(1000, off)).toBe(0);
  });

  it('lets 20 sign-ups from one address in an hour, and mails one address three times before waiting', () => {
    expect(defaults.signUpAddress.lockAfter).toBe(20);
    expect(defaults.signUpAddress.lockoutSeconds).toBe(3600);
    expect([2, 3, 4].map((n) => delayAfter(n, defaults.signUpAccount))).toEqual([0, 60, 120]);
  });

  it('never delays an address, only locks it after 50 failures in a fixed window', () => {
    const address = defaults.signInAddress;
    for (let failures = 0; failures < 60; failures += 1) expect(delayAfter(failures, address)).toBe(0);
    expect(address.lockAfter).toBe(50);
    expect(address.windowFrom).toBe('first');
  });

  it('lets 3 mail requests per account pass, then a minute, doubling up to 15 minutes, never a lock', () => {
    const mail = defaults.mailAccount;
    expect([2, 3, 4, 5, 6, 7, 8, 100].map((n) => delayAfter(n, mail))).toEqual([0, 60, 120, 240, 480, 900, 900, 900]);
    expect(mail.lockAfter).toBeUndefined();
  });
});

describe('delayAfter', () => {
  it('is 0 before the free attempts are used and at or after the lock, and never above the cap', () => {
    fc.assert(
      fc.property(policyArb, hostileCount, (policy, failures) => {
        const delay = delayAfter(failures, policy);
        expect(Number.isFinite(delay)).toBe(true);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(Math.max(policy.maxDelaySeconds, 0));
        if (!(failures >= policy.freeAttempts)) expect(delay).toBe(0);
        if (policy.lockAfter !== undefined && failures >= policy.lockAfter) expect(delay).toBe(0);
      }),
    );
  });

  it('grows with every further failure until the lock', () => {
    fc.assert(
      fc.property(policyArb, fc.integer({ min: 0, max: 2000 }), (policy, failures) => {
        fc.pre(policy.lockAfter === undefined || failures + 1 < policy.lockAfter);
        expect(delayAfter(failures + 1, policy)).toBeGreaterThanOrEqual(delayAfter(failures, policy));
      }),
    );
  });
});

const at = (ms: number) => new Date(ms);
const stateArb = fc.record({
  failures: fc.integer({ min: 0, max: 200 }),
  first: fc.integer({ min: 0, max: 10_000_000 }),
  sinceFirst: fc.integer({ min: 0, max: 10_000_000 }),
  lockMs: fc.option(fc.integer({ min: -10_000_000, max: 10_000_000 }), { nil: undefined }),
  nowAfter: fc.integer({ min: 0, max: 20_000_000 }),
});

describe('retryAfterSeconds', () => {
  it('is 0 for a key never seen, and a whole number of seconds no longer than the lock or delay', () => {
    fc.assert(
      fc.property(policyArb, stateArb, (policy, s) => {
        const last = s.first + s.sinceFirst;
        const state: ThrottleState = { failures: s.failures, firstFailureAt: at(s.first), lastFailureAt: at(last), lockedUntil: s.lockMs === undefined ? null : at(last + s.lockMs) };
        const now = at(last + s.nowAfter);
        const wait = retryAfterSeconds(state, now, policy);
        expect(Number.isInteger(wait)).toBe(true);
        expect(wait).toBeGreaterThanOrEqual(0);
        const lockLeft = state.lockedUntil ? state.lockedUntil.getTime() - now.getTime() : 0;
        expect(wait).toBeLessThanOrEqual(Math.ceil(Math.max(lockLeft / 1000, delayAfter(s.failures, policy))));
        if (isStale(state, now, policy)) expect(wait).toBe(0);
        if (lockLeft > 0) expect(wait).toBeGreaterThan(0);
      }),
    );
    expect(retryAfterSeconds(undefined, new Date(), defaults.signInPair)).toBe(0);
  });

  it('counts down a lock to the second', () => {
    const now = new Date('2030-01-01T00:00:00Z');
    const state: ThrottleState = { failures: 10, firstFailureAt: now, lastFailureAt: now, lockedUntil: new Date(now.getTime() + 900_000) };
    expect(retryAfterSeconds(state, now, defaults.signInPair)).toBe(900);
    expect(retryAfterSeconds(state, new Date(now.getTime() + 899_001), defaults.signInPair)).toBe(1);
    expect(retryAfterSeconds(state, new Date(now.getTime() + 900_000), defaults.signInPair)).toBe(0);
  });

  it('forgets an account only after a quiet window, an address a fixed window after its first failure', () => {
    const first = new Date('2030-01-01T00:00:00Z');
    const last = new Date(first.getTime() + 14 * 60_000);
    const now = new Date(first.getTime() + 16 * 60_000);
    const state: ThrottleState = { failures: 3, firstFailureAt: first, lastFailureAt: last, lockedUntil: null };
    expect(isStale(state, now, defaults.signInPair)).toBe(false);
    expect(isStale(state, now, defaults.signInAddress)).toBe(true);
    // a lock outlives the window
    expect(isStale({ ...state, lockedUntil: new Date(now.getTime() + 1) }, now, defaults.signInAddress)).toBe(false);
  });
});

describe('tryAgainIn', () => {
  it('says seconds under a minute and whole minutes above, rounded up, never 0', () => {
    expect(tryAgainIn(1)).toBe('Try again in 1 second.');
    expect(tryAgainIn(16)).toBe('Try again in 16 seconds.');
    expect(tryAgainIn(59.2)).toBe('Try again in 1 minute.');
    expect(tryAgainIn(61)).toBe('Try again in 2 minutes.');
    expect(tryAgainIn(900)).toBe('Try again in 15 minutes.');
    expect(tryAgainIn(0)).toBe('Try again in 1 second.');
  });

  it('always gives a well-formed sentence, also for numbers that are not durations', () => {
    fc.assert(
      fc.property(fc.oneof(fc.double(), hostileCount), (seconds) => {
        expect(tryAgainIn(seconds)).toMatch(/^Try again in [1-9]\d* (second|seconds|minute|minutes)\.$/);
      }),
    );
  });
});

describe('accountKey', () => {
  it('is the same for every spelling the user lookup treats as the same address', () => {
    expect(accountKey('  Owner@Example.COM ')).toBe('owner@example.com');
    expect(accountKey('ＯＷＮＥＲ@example.com')).toBe('owner@example.com');
    expect(accountKey('owner@example.com\u3000')).toBe('owner@example.com');
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.@+-_'.split('')) }), fc.stringMatching(/^[ \t\n]{0,3}$/), (email, pad) => {
        expect(accountKey(`${pad}${email.toUpperCase()}${pad}`)).toBe(accountKey(email.toLowerCase()));
      }),
    );
  });

  it('is stable: a key is its own key, for any text including lone surrogates', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const key = accountKey(text);
        expect(accountKey(key)).toBe(key);
      }),
      { numRuns: 2000 },
    );
  });

  it('copes with hostile sizes (the store hashes keys, so length costs nothing there)', () => {
    expect(accountKey('Ａ'.repeat(100_000))).toBe('a'.repeat(100_000));
  });
});
