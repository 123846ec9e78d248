import { createHash, randomBytes } from 'node:crypto';

/**
 * API-key secrets are 256 random bits, so a plain SHA-256 is enough to store them safely
 * (no dictionary to attack); passwords use scrypt instead (see identity/passwords.ts).
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function generateSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function generateClientId(): string {
  return randomBytes(16).toString('hex');
}
