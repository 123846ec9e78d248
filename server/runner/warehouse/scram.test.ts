import { describe, expect, it } from 'vitest';
import { md5Answer, scramClient, scramVerifier } from './scram';

describe("the store proxy's password authentication upstream", () => {
  it("computes RFC 7677's SCRAM-SHA-256 exchange", () => {
    // the RFC's example (user "user", password "pencil")
    const client = scramClient('pencil', 'rOprNGfwEbeRWgbNEkqO', 'user');
    expect(client.first).toBe('n,,n=user,r=rOprNGfwEbeRWgbNEkqO');
    const final = client.final('r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096');
    expect(final).toBe('c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=');
    expect(() => client.verify('v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=')).not.toThrow();
    expect(() => client.verify('v=AAAATRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=')).toThrow(/signature/);
  });

  it('refuses a server nonce that does not extend its own, and an absurd iteration count', () => {
    expect(() => scramClient('p', 'abc').final('r=xyz,s=AAAA,i=4096')).toThrow(/nonce/);
    expect(() => scramClient('p', 'abc').final('r=abcd,s=AAAA,i=0')).toThrow(/iteration/);
  });

  it('writes the verifier PostgreSQL stores, and the md5 answer', () => {
    const salt = Buffer.from('W22ZaJ0SNY7soEsUEjb6gQ==', 'base64');
    expect(scramVerifier('pencil', salt)).toMatch(/^SCRAM-SHA-256\$4096:W22ZaJ0SNY7soEsUEjb6gQ==\$[A-Za-z0-9+/=]{44}:[A-Za-z0-9+/=]{44}$/);
    // ServerKey of the RFC's example, as its server signature checks it
    expect(scramVerifier('pencil', salt).split(':').pop()).toBe('wfPLwcE6nTWhTAmQ7tl2KeoiWGPlZqQxSrmfPwDl2dU=');
    expect(md5Answer('postgres', 'secret', Buffer.from([1, 2, 3, 4]))).toMatch(/^md5[0-9a-f]{32}$/);
  });
});
