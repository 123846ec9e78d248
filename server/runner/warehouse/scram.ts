import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';

// Password authentication as PostgreSQL asks for it (SCRAM-SHA-256, RFC 5802/7677; and md5), done
// by the store proxy on behalf of a job, which never holds the loading role's password; and the
// SCRAM verifier the role is created with, so the password itself never reaches PostgreSQL's
// statement log. Passwords here are random hex, so SASLprep has nothing to change.

const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest();
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest();

/** `md5` + md5(md5(password + user) + salt), hex: PostgreSQL's md5 answer */
export function md5Answer(user: string, password: string, salt: Buffer): string {
  const inner = createHash('md5').update(password + user).digest('hex');
  return `md5${createHash('md5').update(Buffer.concat([Buffer.from(inner), salt])).digest('hex')}`;
}

/** The stored form of a password, as PostgreSQL writes it: SCRAM-SHA-256$iterations:salt$StoredKey:ServerKey */
export function scramVerifier(password: string, salt: Buffer = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256');
  const stored = sha256(hmac(salted, 'Client Key'));
  const server = hmac(salted, 'Server Key');
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${stored.toString('base64')}:${server.toString('base64')}`;
}

export interface ScramClient {
  /** the client-first message (PostgreSQL ignores the user name in it: `n=` is empty) */
  first: string;
  /** the client-final message for the server-first; throws on a server-first that is not valid */
  final(serverFirst: string): string;
  /** throws unless the server proved it knows the password */
  verify(serverFinal: string): void;
}

export function scramClient(password: string, nonce: string = randomBytes(18).toString('base64'), user = ''): ScramClient {
  const firstBare = `n=${user},r=${nonce}`;
  let expectedServerSignature: Buffer | undefined;
  return {
    first: `n,,${firstBare}`,
    final(serverFirst) {
      const fields = attributes(serverFirst);
      const combined = fields.get('r');
      const salt = fields.get('s');
      const iterations = Number(fields.get('i'));
      if (!combined || !combined.startsWith(nonce) || combined.length === nonce.length) throw new Error('SCRAM: the server nonce does not extend ours');
      if (!salt || !Number.isInteger(iterations) || iterations < 1 || iterations > 10_000_000) throw new Error('SCRAM: no usable salt or iteration count');
      const salted = pbkdf2Sync(password, Buffer.from(salt, 'base64'), iterations, 32, 'sha256');
      const clientKey = hmac(salted, 'Client Key');
      const withoutProof = `c=biws,r=${combined}`;
      const authMessage = `${firstBare},${serverFirst},${withoutProof}`;
      const signature = hmac(sha256(clientKey), authMessage);
      const proof = Buffer.from(clientKey.map((byte, i) => byte ^ signature[i]!));
      expectedServerSignature = hmac(hmac(salted, 'Server Key'), authMessage);
      return `${withoutProof},p=${proof.toString('base64')}`;
    },
    verify(serverFinal) {
      const given = Buffer.from(attributes(serverFinal).get('v') ?? '', 'base64');
      if (!expectedServerSignature || given.length !== expectedServerSignature.length || !timingSafeEqual(given, expectedServerSignature)) throw new Error('SCRAM: the server signature does not match');
    },
  };
}

function attributes(text: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of text.split(',')) if (part.length >= 2 && part[1] === '=') map.set(part[0]!, part.slice(2));
  return map;
}
