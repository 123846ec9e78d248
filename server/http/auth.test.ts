import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import type { AuthConfig } from '../config';
import { createTokenVerifier } from './auth';

const auth: AuthConfig = { embedded: true, domain: 'http://localhost/idp', clientId: 'spa', audience: 'http://localhost/api', issuer: 'http://localhost/idp/' };

async function issuer() {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const sign = (claims: Record<string, unknown>, key = privateKey, expiresIn = '1h') =>
    new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setIssuer(auth.issuer).setAudience(auth.audience).setIssuedAt().setExpirationTime(expiresIn).sign(key);
  return { sign, jwks: () => Promise.resolve({ keys: [jwk] }) };
}

describe('createTokenVerifier (with its cache)', () => {
  it('never accepts a forged token, not even one carrying the claims of a cached valid token', async () => {
    const { sign, jwks } = await issuer();
    const verify = createTokenVerifier(auth, jwks);
    const claims = { sub: 'auth0|someone', email: 'someone@example.com', email_verified: true };
    const genuine = await sign(claims);
    expect((await verify(genuine)).subject).toBe('auth0|someone');

    const otherKey = (await generateKeyPair('RS256')).privateKey;
    const signedByOther = await sign(claims, otherKey);
    const [header, payload] = genuine.split('.');
    const tampered = `${header}.${payload}.${'A'.repeat(342)}`;
    for (let i = 0; i < 3; i++) {
      await expect(verify(signedByOther)).rejects.toMatchObject({ status: 401 });
      await expect(verify(tampered)).rejects.toMatchObject({ status: 401 });
    }
    expect((await verify(genuine)).subject).toBe('auth0|someone');
  });

  it('rejects an expired token and one for another audience', async () => {
    const { sign, jwks } = await issuer();
    const verify = createTokenVerifier(auth, jwks);
    await expect(verify(await sign({ sub: 'auth0|late' }, undefined, '-1s'))).rejects.toMatchObject({ status: 401 });
    const foreign = await new SignJWT({ sub: 'auth0|x' })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(auth.issuer)
      .setAudience('http://elsewhere/api')
      .setExpirationTime('1h')
      .sign((await generateKeyPair('RS256')).privateKey);
    await expect(verify(foreign)).rejects.toMatchObject({ status: 401 });
  });

  it('answers the same frozen principal for a cached token', async () => {
    const { sign, jwks } = await issuer();
    const verify = createTokenVerifier(auth, jwks);
    const token = await sign({ sub: 'auth0|same' });
    const first = await verify(token);
    expect(await verify(token)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });
});
