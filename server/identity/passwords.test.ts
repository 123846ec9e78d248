import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from './passwords';

describe('passwords', () => {
  it('verifies the password it hashed and nothing else', async () => {
    const stored = await hashPassword('demo-owner');
    expect(stored).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
    expect(await verifyPassword('demo-owner', stored)).toBe(true);
    expect(await verifyPassword('demo-owneR', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('salts: the same password hashes differently each time', async () => {
    const [a, b] = await Promise.all([hashPassword('same'), hashPassword('same')]);
    expect(a).not.toBe(b);
  });

  it('round-trips any text, including unicode and lone surrogates', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 64 }), fc.string({ maxLength: 64 }), async (password, other) => {
        const stored = await hashPassword(password);
        expect(await verifyPassword(password, stored)).toBe(true);
        if (other.normalize('NFKC') !== password.normalize('NFKC')) expect(await verifyPassword(other, stored)).toBe(false);
      }),
      { numRuns: 10 },
    );
    // scrypt is slow on purpose; on a shared machine ten pairs can take a while
  }, 60_000);

  it('answers false, never throws, for malformed or hostile stored hashes', async () => {
    const good = await hashPassword('x');
    const hostile = [
      '',
      'plain',
      'scrypt$',
      'bcrypt$16384$8$1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA',
      'scrypt$16383$8$1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA',
      'scrypt$1073741824$8$1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA',
      'scrypt$16384$999$1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA',
      'scrypt$16384$8$1$$',
      'scrypt$-2$8$1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA',
      good.replace(/\$[^$]+$/, '$'),
      `${good}$extra`,
    ];
    for (const stored of hostile) expect(await verifyPassword('x', stored), stored).toBe(false);
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary' }), async (stored) => {
        expect(await verifyPassword('x', stored)).toBe(false);
      }),
      { numRuns: 200 },
    );
  }, 60_000);

  it('refuses absurdly long passwords without hashing them', async () => {
    expect(await verifyPassword('a'.repeat(100_000), await hashPassword('a'))).toBe(false);
  });

  it('spends a verification on the decoy and says no', async () => {
    expect(await verifyAgainstDecoy('anything')).toBe(false);
  });
});
