import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { cachedVerification, type Verified } from './token-cache';

/** The fake issuer's verdict: `valid:<exp>[:tag]` tokens (exp in ms, or 'none') pass, everything else is forged. */
function judge(token: string): Verified<string> | undefined {
  const match = /^valid:(none|\d+)(?::.*)?$/s.exec(token);
  return match ? { value: `principal of ${token}`, expiresAt: match[1] === 'none' ? undefined : Number(match[1]) } : undefined;
}

/** A verifier giving judge's verdict, counting its calls. */
function fakeVerifier() {
  return vi.fn((token: string): Promise<Verified<string>> => {
    const verdict = judge(token);
    return verdict ? Promise.resolve(verdict) : Promise.reject(new Error('invalid token'));
  });
}

function clock(start = 1_000_000) {
  let at = start;
  return { now: () => at, advance: (ms: number) => (at += ms) };
}

describe('cachedVerification', () => {
  it('verifies a token once and answers later requests from memory', async () => {
    const verify = fakeVerifier();
    const time = clock();
    const cached = cachedVerification(verify, { now: time.now });
    const token = `valid:${time.now() + 3_600_000}`;
    expect(await cached(token)).toBe(`principal of ${token}`);
    expect(await cached(token)).toBe(`principal of ${token}`);
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it("never keeps an entry past the token's own expiry, even when the cap is later", async () => {
    const verify = fakeVerifier();
    const time = clock();
    const cached = cachedVerification(verify, { now: time.now, maxAgeMs: 60_000 });
    const token = `valid:${time.now() + 10_000}`;
    await cached(token);
    time.advance(9_999);
    await cached(token);
    expect(verify).toHaveBeenCalledTimes(1);
    time.advance(1);
    await cached(token);
    // The cache asked the verifier again: it is the verifier that decides about an expired token.
    expect(verify).toHaveBeenCalledTimes(2);
  });

  it('never keeps an entry past the cap, even when the token lives longer (or has no expiry)', async () => {
    const verify = fakeVerifier();
    const time = clock();
    const cached = cachedVerification(verify, { now: time.now, maxAgeMs: 60_000 });
    for (const token of [`valid:${time.now() + 3_600_000}`, 'valid:none']) {
      await cached(token);
      time.advance(59_999);
      await cached(token);
      time.advance(1);
      await cached(token);
    }
    expect(verify).toHaveBeenCalledTimes(4);
  });

  it('holds at most maxEntries tokens and evicts the least recently used first', async () => {
    const verify = fakeVerifier();
    const time = clock();
    const cached = cachedVerification(verify, { now: time.now, maxEntries: 2 });
    const exp = time.now() + 3_600_000;
    const [a, b, c] = [`valid:${exp}:a`, `valid:${exp}:b`, `valid:${exp}:c`];
    await cached(a);
    await cached(b);
    await cached(a); // a is now the most recently used
    await cached(c); // evicts b
    verify.mockClear();
    await cached(a);
    await cached(c);
    expect(verify).not.toHaveBeenCalled();
    await cached(b);
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it('never caches a rejected (forged or expired) token: each presentation is verified and rejected again', async () => {
    const verify = fakeVerifier();
    const cached = cachedVerification(verify);
    for (let i = 0; i < 3; i++) await expect(cached('forged')).rejects.toThrow('invalid token');
    expect(verify).toHaveBeenCalledTimes(3);
  });

  it('shares one verification among concurrent requests with the same new token', async () => {
    const verify = fakeVerifier();
    const cached = cachedVerification(verify);
    const token = `valid:${Date.now() + 3_600_000}`;
    await Promise.all([cached(token), cached(token), cached(token)]);
    expect(verify).toHaveBeenCalledTimes(1);
    await Promise.all([expect(cached('nope')).rejects.toThrow(), expect(cached('nope')).rejects.toThrow()]);
    await expect(cached('nope')).rejects.toThrow();
    expect(verify).toHaveBeenCalledTimes(3); // one shared failure, then verified afresh
  });

  it('property: whatever the tokens and timing, an answer is the verifier’s own and given only while the token is fresh and within the cap', async () => {
    const maxAgeMs = 1_000;
    const operation = fc.record({
      token: fc.oneof(
        fc.string({ maxLength: 40 }), // hostile: anything at all, mostly rejected
        fc.record({ exp: fc.integer({ min: 0, max: 5_000 }), tag: fc.constantFrom('a', 'b', 'c', 'd') }).map(({ exp, tag }) => `valid:${exp}:${tag}`),
      ),
      advance: fc.integer({ min: 0, max: 700 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { maxLength: 60 }), fc.integer({ min: 1, max: 3 }), async (operations, maxEntries) => {
        const verify = fakeVerifier();
        const time = clock(0);
        const cached = cachedVerification(verify, { now: time.now, maxAgeMs, maxEntries });
        const verifiedAt = new Map<string, number>();
        for (const { token, advance } of operations) {
          time.advance(advance);
          const calls = verify.mock.calls.length;
          let answer: string | undefined;
          try {
            answer = await cached(token);
          } catch {
            answer = undefined;
          }
          const called = verify.mock.calls.length > calls;
          if (called) verifiedAt.set(token, time.now());
          const expected = judge(token);
          // Only the verifier's own answers come out; a rejected token never gets one.
          expect(answer).toBe(expected?.value);
          if (!called && answer !== undefined) {
            // Served from memory: verified earlier, within the cap, and the token has not expired.
            const at = verifiedAt.get(token)!;
            expect(time.now()).toBeLessThan(at + maxAgeMs);
            expect(time.now()).toBeLessThan(expected!.expiresAt ?? Number.POSITIVE_INFINITY);
          }
        }
      }),
    );
  });
});
