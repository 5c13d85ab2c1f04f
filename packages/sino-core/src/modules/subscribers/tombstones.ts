import { createHmac, hkdfSync } from 'node:crypto';
import { createSecretBox, type EncryptionKeys } from '../../secret-box.js';
import type { SealedRepository } from '../../sealed/repository.js';

/**
 * The key an installation's tombstones were keyed with before it was kept in the database:
 * derived from SINO_ENCRYPTION_KEY. The first start of a version that keeps it stores this,
 * so the tombstones already written are still found.
 */
export const deriveTombstoneKey = (encryptionKey: string): Buffer =>
  Buffer.from(hkdfSync('sha256', encryptionKey, Buffer.alloc(0), 'sino erased subscriber ids', 32));

/**
 * The keys under which erased subscribers' tombstones are kept: HMAC-SHA256 of the environment
 * and the subscriberId. Ids like `usuario-42` are easy to guess, so a plain hash could be
 * reversed by trying them all; keyed with a secret of the server, a copy of the database alone
 * tells no erased id. That secret is kept in `sino.server_secrets`, sealed under the
 * encryption key, and never changes: a tombstone cannot be keyed again (its id is gone), so
 * rotating SINO_ENCRYPTION_KEY re-seals it instead (docs/decisions/038). The first key writes;
 * every key is looked for (an installation that upgraded in the middle of a rotation has one
 * per encryption key it then had).
 *
 * `load` is asked once, on first use, and again after a failure.
 */
export function createTombstoneKeys(load: () => Promise<readonly Buffer[]>) {
  let keys: Promise<readonly Buffer[]> | undefined;
  const loaded = () =>
    (keys ??= load().then(
      (found) => {
        if (found.length === 0) throw new Error('No key for the tombstones of erased subscribers');
        return found;
      },
      (error: unknown) => {
        keys = undefined;
        throw error;
      },
    ));
  const keyed = (key: Buffer, environmentId: string, subscriberId: string) =>
    createHmac('sha256', key)
      .update(environmentId)
      .update('\u0000')
      .update(subscriberId)
      .digest('hex');

  return {
    /** Reads the keys now (at start): a key that cannot be opened stops the start, not a request. */
    async load(): Promise<void> {
      await loaded();
    },
    /** The key a new tombstone of the subscriberId is written under. */
    async keyOf(environmentId: string, subscriberId: string): Promise<string> {
      const [first] = await loaded();
      return keyed(first!, environmentId, subscriberId);
    },
    /** Every key a tombstone of the subscriberId may be under. */
    async keysOf(environmentId: string, subscriberId: string): Promise<string[]> {
      return (await loaded()).map((key) => keyed(key, environmentId, subscriberId));
    },
  };
}

export type TombstoneKeys = ReturnType<typeof createTombstoneKeys>;

/** Tombstone keys fixed in advance: a repository built alone (tests). */
export const fixedTombstoneKeys = (...secrets: string[]): TombstoneKeys =>
  createTombstoneKeys(async () => secrets.map(deriveTombstoneKey));

/** The name the tombstones' keys are kept under in `sino.server_secrets`. */
export const TOMBSTONE_KEYS = 'tombstone-keys';

/**
 * The tombstones' keys kept in the database, opened with the encryption keys. Where none are
 * kept yet (the first start of this version, or of an installation), they are the keys
 * derived from each configured encryption key, the current first (as tombstones were keyed
 * before), kept now; when nodes start together, the first kept wins for all.
 */
export async function keptTombstoneKeys(
  store: Pick<SealedRepository, 'serverSecret' | 'keepServerSecret'>,
  keys: EncryptionKeys,
): Promise<Buffer[]> {
  const box = createSecretBox(keys);
  let sealed = await store.serverSecret(TOMBSTONE_KEYS);
  if (sealed === undefined) {
    const derived = [keys.current, ...(keys.previous ?? [])].map((k) =>
      deriveTombstoneKey(k).toString('base64url'),
    );
    await store.keepServerSecret(TOMBSTONE_KEYS, box.seal(JSON.stringify(derived)));
    sealed = await store.serverSecret(TOMBSTONE_KEYS);
    if (sealed === undefined) throw new Error('The tombstone keys were not kept');
  }
  const kept = JSON.parse(
    box.open(sealed, "the key of erased subscribers' tombstones"),
  ) as string[];
  return kept.map((k) => Buffer.from(k, 'base64url'));
}
