import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * The encryption keys of an installation (SINO_ENCRYPTION_KEY and
 * SINO_ENCRYPTION_KEYS_PREVIOUS): `current` seals, every one of them opens. A rotation adds the
 * new key as current with the old one as previous, re-seals (src/sealed/reseal.ts), then
 * drops the previous one (docs/decisions/038).
 */
export interface EncryptionKeys {
  current: string;
  previous?: readonly string[] | undefined;
}

/**
 * A short public name of a key: 8 base64url characters of a SHA-256 over it, stored beside
 * what it sealed so the right key is taken without trying each. It tells nothing of the key
 * that the ciphertext (whose GCM tag checks any guess) did not already.
 */
export const keyIdOf = (secret: string): string =>
  createHash('sha256').update('sino key id\u0000').update(secret).digest('base64url').slice(0, 8);

/** A sealed value that none of the configured keys opens: its key was removed. */
export class SealedUnderUnknownKey extends Error {
  override readonly name = 'SealedUnderUnknownKey';
  constructor(
    /** The id of the key it was sealed with; undefined for values sealed before ids (v1). */
    readonly keyId: string | undefined,
    /** What the value is, in words that name no secret ("credentials of integration ..."). */
    what = 'a sealed value',
  ) {
    super(
      `Cannot open ${what}: it was sealed under an encryption key this server does not have (${keyId ? `key id ${keyId}` : 'sealed before key ids'}); add that key to SINO_ENCRYPTION_KEYS_PREVIOUS, or enter the value again`,
    );
  }
}

/** A sealed value its own key does not open: altered or truncated in the database. */
export class SealedValueDamaged extends Error {
  override readonly name = 'SealedValueDamaged';
  constructor(what = 'a sealed value') {
    super(`Cannot open ${what}: it is damaged (altered or truncated in the database)`);
  }
}

/** Whether the error says a sealed value could not be opened (a missing key, or damage). */
export const isUnopenable = (error: unknown): error is SealedUnderUnknownKey | SealedValueDamaged =>
  error instanceof SealedUnderUnknownKey || error instanceof SealedValueDamaged;

interface Key {
  id: string;
  aes: Buffer;
}

/**
 * AES-256-GCM for secrets kept at rest (API keys, provider credentials, the tombstones' key).
 * Sealed as `v2.<key id>.<iv>.<tag>.<ciphertext>` (base64url) under the current key; `v1.<iv>.
 * <tag>.<ciphertext>`, written before key ids, still opens: under each configured key in
 * turn, the current first.
 */
export function createSecretBox(keys: string | EncryptionKeys) {
  const { current, previous = [] } = typeof keys === 'string' ? { current: keys } : keys;
  // Any length of secret works: it is stretched to the 32 bytes AES-256 needs.
  const toKey = (secret: string): Key => ({
    id: keyIdOf(secret),
    aes: createHash('sha256').update(secret).digest(),
  });
  const writing = toKey(current);
  const all = [writing, ...previous.map(toKey)];
  const byId = new Map(all.map((k) => [k.id, k]));

  const decrypt = (key: Key, iv: string, tag: string, data: string): string => {
    const decipher = createDecipheriv('aes-256-gcm', key.aes, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(data, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  };

  return {
    /** The id of the key new values are sealed with. */
    currentKeyId: writing.id,
    /** The ids of every key this box opens with, the current first. */
    keyIds: all.map((k) => k.id),

    seal(plaintext: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', writing.aes, iv);
      const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url'));
      return `v2.${writing.id}.${parts.join('.')}`;
    },

    /**
     * The plaintext. Throws `SealedUnderUnknownKey` when no configured key sealed it, and
     * `SealedValueDamaged` when its key does not open it; `what` names it in those errors.
     */
    open(sealed: string, what?: string): string {
      const parts = sealed.split('.');
      if (parts[0] === 'v2' && parts.length === 5) {
        const [, id, iv, tag, data] = parts as [string, string, string, string, string];
        const key = byId.get(id);
        if (!key) throw new SealedUnderUnknownKey(id, what);
        try {
          return decrypt(key, iv, tag, data);
        } catch {
          throw new SealedValueDamaged(what);
        }
      }
      if (parts[0] === 'v1' && parts.length === 4) {
        const [, iv, tag, data] = parts as [string, string, string, string];
        for (const key of all) {
          try {
            return decrypt(key, iv, tag, data);
          } catch {
            // Not this key: GCM's tag refuses any other; the next is tried.
          }
        }
        throw new SealedUnderUnknownKey(undefined, what);
      }
      throw new SealedValueDamaged(what);
    },

    /** The key id a sealed value names; undefined for the v1 values, which name none. */
    keyIdIn(sealed: string): string | undefined {
      const [version, id] = sealed.split('.');
      return version === 'v2' ? id : undefined;
    },

    /** Whether the value is sealed under the current key (nothing to re-seal). */
    isCurrent(sealed: string): boolean {
      return sealed.startsWith(`v2.${writing.id}.`);
    },
  };
}

export type SecretBox = ReturnType<typeof createSecretBox>;
