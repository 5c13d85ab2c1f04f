import { createHmac, hkdfSync } from 'node:crypto';

/**
 * The key under which an erased subscriber's tombstone is kept: HMAC-SHA256 of the environment
 * and the subscriberId. Ids like `usuario-42` are easy to guess, so a plain hash could be
 * reversed by trying them all; keyed with a secret of the server (derived from
 * SINO_ENCRYPTION_KEY, never stored), a copy of the database alone tells no erased id.
 */
export function createTombstoneKeys(secret: string) {
  const key = Buffer.from(
    hkdfSync('sha256', secret, Buffer.alloc(0), 'sino erased subscriber ids', 32),
  );
  return {
    keyOf(environmentId: string, subscriberId: string): string {
      return createHmac('sha256', key)
        .update(environmentId)
        .update('\u0000')
        .update(subscriberId)
        .digest('hex');
    },
  };
}

export type TombstoneKeys = ReturnType<typeof createTombstoneKeys>;
