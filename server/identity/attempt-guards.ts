import type { IncomingMessage } from 'node:http';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { addressKey, clientAddress } from './client-address';
import { claimAttempt, forgetAttempts, refundAttempt } from './throttle';
import { accountKey, throttlePolicies, type ThrottlePolicies } from './throttle-policy';

/** Who is attempting: the email typed in and the client's address. */
export interface Attempt {
  email: string;
  address: string;
}

export type SignInOutcome<U> = { outcome: 'refused'; retryAfterSeconds: number } | { outcome: 'failed' } | { outcome: 'succeeded'; user: U };

export type MailKind = 'reset' | 'verify' | 'link' | 'change-email';

export type Allowance = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface AttemptGuards {
  readonly policies: ThrottlePolicies;
  /** the client address of a request, honouring TRUST_PROXY */
  addressOf(req: IncomingMessage): string;
  /**
   * Runs `verify` (the password check) only when neither the address, nor the account from that
   * address, nor the account as a whole is throttled: a refused attempt never has its password
   * looked at.
   */
  signIn<U>(attempt: Attempt, verify: () => Promise<U | undefined>): Promise<SignInOutcome<U>>;
  /** Counts a request that may send mail; refused when the address or the account asked too often. */
  mailRequest(kind: MailKind, attempt: Attempt): Promise<Allowance>;
  /** Counts a sign-up: per client address, and per address signed up for (it is mailed either way). */
  signUpRequest(attempt: Attempt): Promise<Allowance>;
  /**
   * The mailbox was proven (password reset, sign-in link) from `address`: the account's slowdown
   * and that address's own failures on it are forgotten. Other addresses' locks on the account stay,
   * or the owner's recovery would hand an attacker a fresh set of guesses.
   */
  accountRecovered(email: string, address: string): Promise<void>;
}

export function createAttemptGuards(db: Db, config: Config): AttemptGuards {
  const policies = throttlePolicies({
    lockoutSeconds: config.env.LOGIN_LOCKOUT_SECONDS,
    delaySeconds: config.env.LOGIN_DELAY_SECONDS,
    addressMaxFailures: config.env.LOGIN_ADDRESS_MAX_FAILURES,
  });
  const trustedProxies = config.env.TRUST_PROXY;

  return {
    policies,
    addressOf: (req) => clientAddress({ remoteAddress: req.socket.remoteAddress, forwardedFor: req.headers['x-forwarded-for'] }, trustedProxies),

    async signIn(attempt, verify) {
      const address = addressKey(attempt.address);
      const account = accountKey(attempt.email);
      const pair = { account, address };
      // The attempt is counted as a failure before the password is checked and given back when it
      // succeeds: counting afterwards would let a burst of parallel guesses all pass the check.
      const byAddress = await claimAttempt(db, 'sign-in:address', address, policies.signInAddress);
      if (!byAddress.allowed) return { outcome: 'refused', retryAfterSeconds: byAddress.retryAfterSeconds };
      // A refusal here still counts against the address: hammering a locked account is what an
      // attacker does, not what a colleague behind the same NAT does.
      const byPair = await claimAttempt(db, 'sign-in:pair', pair, policies.signInPair);
      if (!byPair.allowed) return { outcome: 'refused', retryAfterSeconds: byPair.retryAfterSeconds };
      const byAccount = await claimAttempt(db, 'sign-in:account', account, policies.signInAccount);
      if (!byAccount.allowed) {
        // Held up by failures from elsewhere: that must not count towards this pair's own lock,
        // or an attacker's slowdown would turn into a lockout of the owner's address.
        await refundAttempt(db, 'sign-in:pair', pair, policies.signInPair, byPair.claimedAt);
        return { outcome: 'refused', retryAfterSeconds: byAccount.retryAfterSeconds };
      }
      const user = await verify();
      if (user === undefined) return { outcome: 'failed' };
      await forgetAttempts(db, 'sign-in:pair', pair);
      // Only this attempt is given back: the failures of others keep slowing them down.
      await refundAttempt(db, 'sign-in:account', account, policies.signInAccount, byAccount.claimedAt);
      await refundAttempt(db, 'sign-in:address', address, policies.signInAddress, byAddress.claimedAt);
      return { outcome: 'succeeded', user };
    },

    async mailRequest(kind, attempt) {
      const byAddress = await claimAttempt(db, 'mail:address', addressKey(attempt.address), policies.mailAddress);
      if (!byAddress.allowed) return byAddress;
      const byAccount = await claimAttempt(db, MAIL_KINDS[kind], accountKey(attempt.email), policies.mailAccount);
      return byAccount.allowed ? { allowed: true } : byAccount;
    },

    async signUpRequest(attempt) {
      const byAddress = await claimAttempt(db, 'sign-up:address', addressKey(attempt.address), policies.signUpAddress);
      if (!byAddress.allowed) return byAddress;
      const byAccount = await claimAttempt(db, 'sign-up:account', accountKey(attempt.email), policies.signUpAccount);
      return byAccount.allowed ? { allowed: true } : byAccount;
    },

    async accountRecovered(email, address) {
      const account = accountKey(email);
      await forgetAttempts(db, 'sign-in:account', account);
      await forgetAttempts(db, 'sign-in:pair', { account, address: addressKey(address) });
    },
  };
}

const MAIL_KINDS = { reset: 'reset:account', verify: 'verify:account', link: 'link:account', 'change-email': 'email-change:account' } as const;

export const TOO_MANY_SIGN_IN_ATTEMPTS = 'Too many failed sign-in attempts.';
export const TOO_MANY_REQUESTS = 'Too many requests for this address.';
export const TOO_MANY_SIGN_UPS = 'Too many sign-up attempts.';
