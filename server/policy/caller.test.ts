import { describe, expect, it } from 'vitest';
import type { Principal } from '../http/auth';
import { requireCurrentToken } from './caller';

const user = (issuedAt: number | undefined): Principal => ({ subject: 'auth0|x', email: undefined, emailVerified: true, name: undefined, clientId: undefined, kind: 'user', issuedAt });
const changedAt = (ms: number) => ({ credentials_changed_at: new Date(ms) });
const verdict = (principal: Principal, profile: { credentials_changed_at: Date | null }) => {
  try {
    requireCurrentToken(principal, profile);
    return 'ok';
  } catch (error) {
    return (error as { status?: number }).status;
  }
};

describe('requireCurrentToken', () => {
  // a change at 1,000,000.700 s
  const change = changedAt(1_000_000_700);

  it('refuses a user token issued a second or more before the change (401)', () => {
    expect(verdict(user(999_999), change)).toBe(401);
    expect(verdict(user(undefined), change)).toBe(401);
  });

  it('keeps a token issued in the same second as the change, or after it: the sign-in that follows a reset', () => {
    expect(verdict(user(1_000_000), change)).toBe('ok');
    expect(verdict(user(1_000_001), change)).toBe('ok');
  });

  it('lets everything through while the account never changed its credentials, and an API key token always', () => {
    expect(verdict(user(1), { credentials_changed_at: null })).toBe('ok');
    expect(verdict({ ...user(1), kind: 'client', clientId: 'k' }, change)).toBe('ok');
  });
});
