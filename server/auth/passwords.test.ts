import { describe, expect, it } from 'vitest';
import { dummyHash, hashPassword, needsRehash, scryptKey, verifyPassword, type DeriveKey } from './passwords';

describe('password hashing', () => {
  it("uses OWASP's scrypt parameters by default (N=2^17, r=8, p=1, 16-byte salt) and says so in the hash", async () => {
    const hash = await hashPassword('correct horse battery', 17);
    const [scheme, logN, r, p, salt, key] = hash.split('$');
    expect([scheme, logN, r, p]).toEqual(['scrypt', '17', '8', '1']);
    expect(Buffer.from(salt ?? '', 'base64url')).toHaveLength(16);
    expect(Buffer.from(key ?? '', 'base64url')).toHaveLength(32);
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same password', 10)).not.toBe(await hashPassword('same password', 10));
  });

  it('still verifies hashes made with cheaper parameters, and asks for a rehash', async () => {
    const cheap = await hashPassword('old password', 10);
    expect(await verifyPassword('old password', cheap)).toBe(true);
    expect(needsRehash(cheap, 17)).toBe(true);
    expect(needsRehash(cheap, 10)).toBe(false);
  });

  it('refuses malformed hashes instead of throwing', async () => {
    for (const bad of ['', 'plain', 'scrypt$17$8$1$$', 'scrypt$99$8$1$c2FsdA$a2V5', 'bcrypt$10$x$y$z$w']) {
      expect(await verifyPassword('x', bad), bad).toBe(false);
    }
  });

  it('verifies against the throw-away hash of an unknown e-mail with one derivation at the current cost, matching nothing', async () => {
    const costs: number[] = [];
    const counting: DeriveKey = (password, salt, logN, r, p) => {
      costs.push(logN);
      return scryptKey(password, salt, logN, r, p);
    };
    const dummy = dummyHash(12);
    expect(needsRehash(dummy, 12)).toBe(false);
    for (const guess of ['correct horse', '', 'x'.repeat(128)]) expect(await verifyPassword(guess, dummy, counting)).toBe(false);
    expect(costs).toEqual([12, 12, 12]);
    expect(dummyHash(12)).not.toBe(dummy);
  });
});
