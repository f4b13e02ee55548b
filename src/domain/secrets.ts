/** How secrets are kept: only as hashes, compared in constant time. */
import { createHash, scryptSync, timingSafeEqual } from 'node:crypto';

/** SHA-256 of an API key's secret: the secret is random and long, so a fast hash is enough. */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export function secretMatches(secret: string, hash: string): boolean {
  const a = Buffer.from(hashSecret(secret), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** scrypt for passwords, which people choose and which may be guessed. */
export function hashPassword(password: string, salt: Buffer): string {
  return `scrypt$${salt.toString('hex')}$${scryptSync(password, salt, 32).toString('hex')}`;
}

export function passwordMatches(password: string, stored: string): boolean {
  const [scheme, saltHex, hashHex] = stored.split('$');
  if (scheme !== 'scrypt' || !saltHex || !hashHex) return false;
  const expected = Buffer.from(hashHex, 'hex');
  const actual = scryptSync(password, Buffer.from(saltHex, 'hex'), expected.length);
  return timingSafeEqual(actual, expected);
}

/** A token of `bytes` random bytes in URL-safe base64, for keys and secrets. */
export const token = (random: { bytes(n: number): Buffer }, bytes: number): string =>
  random.bytes(bytes).toString('base64url');
