// Password hashing with scrypt at OWASP's parameters (N=2^17, r=8, p=1). A hash carries its
// parameters (`scrypt$<log2 N>$<r>$<p>$<salt>$<hash>`, base64url), so the cost can be raised later
// and old hashes still verify (and are re-hashed at the next sign-in). Comparison is constant-time.
// The functions here derive keys directly; the server reaches them only through the PasswordService of
// context.ts, which runs every derivation through the bounded queue of hash-queue.ts.

import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
const R = 8;
const P = 1;

/** Derives the key of `password`; tests may pass an instrumented one (the real scrypt is the default). */
export type DeriveKey = (password: string, salt: Buffer, logN: number, r: number, p: number) => Promise<Buffer>;

export const scryptKey: DeriveKey = (password, salt, logN, r, p) => {
  const N = 2 ** logN;
  // scrypt needs 128 * N * r bytes; leave headroom over Node's 32 MiB default.
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
};

export async function hashPassword(password: string, logN: number, derive: DeriveKey = scryptKey): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, logN, R, P);
  return ['scrypt', logN, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

interface ParsedHash {
  logN: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parseHash(encoded: string): ParsedHash | null {
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [logN, r, p] = parts.slice(1, 4).map(Number);
  if (!logN || !r || !p || logN > 22 || r > 32 || p > 16) return null;
  return { logN, r, p, salt: Buffer.from(parts[4] ?? '', 'base64url'), key: Buffer.from(parts[5] ?? '', 'base64url') };
}

export async function verifyPassword(password: string, encoded: string, derive: DeriveKey = scryptKey): Promise<boolean> {
  const parsed = parseHash(encoded);
  if (!parsed || parsed.key.length === 0) return false;
  const key = await derive(password, parsed.salt, parsed.logN, parsed.r, parsed.p);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

/** True when the hash was made with weaker parameters than the current ones. */
export function needsRehash(encoded: string, logN: number): boolean {
  const parsed = parseHash(encoded);
  return !parsed || parsed.logN < logN || parsed.r < R || parsed.p < P;
}

/**
 * A hash to verify against when the e-mail is unknown, so that a sign-in for a missing account costs as much
 * as one for an existing account and the timing does not tell them apart. Its key is random bytes rather than
 * a derived key: verifying against it costs the same one derivation, and making it costs none (no password
 * can match it, which is the point).
 */
export function dummyHash(logN: number): string {
  return ['scrypt', logN, R, P, randomBytes(SALT_LENGTH).toString('base64url'), randomBytes(KEY_LENGTH).toString('base64url')].join('$');
}
