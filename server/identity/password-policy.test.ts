import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../seed';
import { isCommonPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, PASSWORD_MESSAGES, passwordProblem } from './password-policy';

describe('password policy', () => {
  it('refuses the most common passwords, whatever their case, even when long enough', async () => {
    for (const password of ['qwertyuiop', '1234567890', 'password123', 'PASSWORD123', 'Basketball', '1q2w3e4r5t']) {
      expect(await passwordProblem(password), password).toBe(PASSWORD_MESSAGES.common);
    }
    // full-width digits fold to the same password under NFKC, as the hash folds them
    expect(await isCommonPassword('１２３４５６７８９０')).toBe(true);
  });

  it('refuses short passwords by characters, not UTF-16 units', async () => {
    expect(await passwordProblem('nine-char')).toBe(PASSWORD_MESSAGES.tooShort);
    expect(await passwordProblem('')).toBe(PASSWORD_MESSAGES.tooShort);
    // nine emoji are 18 UTF-16 units but nine characters
    expect(await passwordProblem('🔑'.repeat(9))).toBe(PASSWORD_MESSAGES.tooShort);
    expect(await passwordProblem('🔑'.repeat(10))).toBeUndefined();
  });

  it('refuses what verifyPassword would refuse to check, so an accepted password can always sign in', async () => {
    expect(await passwordProblem('x'.repeat(MAX_PASSWORD_LENGTH))).toBeUndefined();
    expect(await passwordProblem('x'.repeat(MAX_PASSWORD_LENGTH + 1))).toBe(PASSWORD_MESSAGES.tooLong);
    expect(await passwordProblem('x'.repeat(5_000_000))).toBe(PASSWORD_MESSAGES.tooLong);
  });

  it('accepts the passwords the demo users and the tests choose', async () => {
    for (const password of [DEMO.owner.password, DEMO.member.password, DEMO.unverified.password, 'a-long-password', 'alice-password']) {
      expect(await passwordProblem(password), password).toBeUndefined();
    }
  });

  it('never throws and answers exactly one of its messages or nothing, for any text', async () => {
    const messages = new Set<string | undefined>([...Object.values(PASSWORD_MESSAGES), undefined]);
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 40 }), async (password) => {
        const problem = await passwordProblem(password);
        expect(messages.has(problem)).toBe(true);
        if ([...password.normalize('NFKC')].length < MIN_PASSWORD_LENGTH) expect(problem).toBe(PASSWORD_MESSAGES.tooShort);
        if (problem === undefined) expect(await isCommonPassword(password)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});
