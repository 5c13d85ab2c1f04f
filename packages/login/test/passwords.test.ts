import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../src/passwords.js';

describe('passwords', () => {
  it('hashes with argon2id at the set cost, a fresh salt each time', async () => {
    const [a, b] = await Promise.all([
      hashPassword('correct horse'),
      hashPassword('correct horse'),
    ]);
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(a).not.toBe(b);
  });

  it('verifies the right password only, and a malformed or missing hash never', async () => {
    const hash = await hashPassword('correct horse');
    expect(await verifyPassword(hash, 'correct horse')).toBe(true);
    expect(await verifyPassword(hash, 'correct horsf')).toBe(false);
    expect(await verifyPassword('not a hash', 'correct horse')).toBe(false);
    expect(await verifyPassword(null, 'a password that never matches')).toBe(false);
  });
});
