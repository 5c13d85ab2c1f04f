import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createSecretBox,
  keyIdOf,
  SealedUnderUnknownKey,
  SealedValueDamaged,
} from '../src/secret-box.js';
import { createCallbackUrls } from '../src/delivery/callbacks.js';
import {
  createTombstoneKeys,
  deriveTombstoneKey,
  keptTombstoneKeys,
} from '../src/modules/subscribers/tombstones.js';

/**
 * Decision 038: the encryption key rotates. The current key seals, every configured key opens,
 * and what was sealed before key ids (v1) still opens.
 */
const KEY_A = 'encryption-key-A-for-rotation-tests-0123456789';
const KEY_B = 'encryption-key-B-for-rotation-tests-0123456789';
const KEY_C = 'encryption-key-C-for-rotation-tests-0123456789';

/** A value sealed as every version before decision 038 sealed it (`v1.<iv>.<tag>.<data>`). */
function sealedAsV1(secret: string, plaintext: string): string {
  const key = createHash('sha256').update(secret).digest();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `v1.${[iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.')}`;
}

const errorOf = (work: () => unknown): Error => {
  try {
    work();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
};

describe('the secret box across a rotation', () => {
  it('seals under the current key, naming it; opens under it and under previous keys', () => {
    const a = createSecretBox(KEY_A);
    const sealed = a.seal('{"apiKey":"SG.rotation"}');
    expect(sealed.startsWith(`v2.${keyIdOf(KEY_A)}.`)).toBe(true);
    expect(a.isCurrent(sealed)).toBe(true);
    expect(a.keyIdIn(sealed)).toBe(keyIdOf(KEY_A));

    const rotating = createSecretBox({ current: KEY_B, previous: [KEY_A] });
    expect(rotating.open(sealed)).toBe('{"apiKey":"SG.rotation"}');
    expect(rotating.isCurrent(sealed)).toBe(false);
    const again = rotating.seal('{"apiKey":"SG.rotation"}');
    expect(again.startsWith(`v2.${keyIdOf(KEY_B)}.`)).toBe(true);
    expect(createSecretBox(KEY_B).open(again)).toBe('{"apiKey":"SG.rotation"}');
  });

  it('opens values sealed before key ids under whichever configured key sealed them', () => {
    const legacy = sealedAsV1(KEY_A, 'sealed before 038');
    expect(createSecretBox(KEY_A).open(legacy)).toBe('sealed before 038');
    expect(createSecretBox({ current: KEY_B, previous: [KEY_C, KEY_A] }).open(legacy)).toBe(
      'sealed before 038',
    );
    expect(createSecretBox(KEY_A).keyIdIn(legacy)).toBeUndefined();
    expect(createSecretBox(KEY_A).isCurrent(legacy)).toBe(false);
  });

  it('says which key is missing, naming the value and never a secret', () => {
    const sealed = createSecretBox(KEY_A).seal('the-credential-itself');
    const error = errorOf(() =>
      createSecretBox(KEY_B).open(sealed, 'the credentials of integration sendgrid-x (sendgrid)'),
    );
    expect(error).toBeInstanceOf(SealedUnderUnknownKey);
    expect((error as SealedUnderUnknownKey).keyId).toBe(keyIdOf(KEY_A));
    expect(error.message).toBe(
      `Cannot open the credentials of integration sendgrid-x (sendgrid): it was sealed under an encryption key this server does not have (key id ${keyIdOf(KEY_A)}); add that key to SINO_ENCRYPTION_KEYS_PREVIOUS, or enter the value again`,
    );
    for (const secret of [KEY_A, KEY_B, 'the-credential-itself'])
      expect(error.message).not.toContain(secret);

    const legacy = errorOf(() => createSecretBox(KEY_B).open(sealedAsV1(KEY_A, 'x')));
    expect(legacy).toBeInstanceOf(SealedUnderUnknownKey);
    expect(legacy.message).toContain('sealed before key ids');
  });

  it('tells a damaged value from one under a missing key', () => {
    const box = createSecretBox(KEY_A);
    const [v, id, iv, tag, data] = box.seal('value').split('.');
    const altered = `${v}.${id}.${iv}.${tag}.${Buffer.from('other').toString('base64url')}${data}`;
    expect(errorOf(() => box.open(altered))).toBeInstanceOf(SealedValueDamaged);
    expect(errorOf(() => box.open('not sealed at all'))).toBeInstanceOf(SealedValueDamaged);
  });

  it('gives each key a short id of its own, the same on every node', () => {
    expect(keyIdOf(KEY_A)).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(keyIdOf(KEY_A)).toBe(keyIdOf(KEY_A));
    expect(keyIdOf(KEY_A)).not.toBe(keyIdOf(KEY_B));
  });
});

describe('what else the encryption key keys', () => {
  it('reads callback URLs given out before the rotation while the previous key is configured', () => {
    const scope = {
      organizationId: '0123456789abcdef01234567',
      environmentId: '0123456789abcdef01234568',
      channel: 'sms',
      providerId: 'plivo',
    };
    const messageId = '0123456789abcdef01234569';
    const before = createCallbackUrls({ secret: KEY_A, publicUrl: 'https://sino.example' });
    const token = before.urlFor(scope, messageId)!.split('/').at(-1)!;
    const rotating = createCallbackUrls({ secret: KEY_B, previousSecrets: [KEY_A] });
    expect(rotating.verify(scope, token)?.messageId).toBe(messageId);
    expect(createCallbackUrls({ secret: KEY_B }).verify(scope, token)).toBeUndefined();
  });

  it('keeps the tombstone keys as they were derived, whatever the encryption key becomes', async () => {
    const kept = new Map<string, string>();
    const store = {
      serverSecret: async (name: string) => kept.get(name),
      keepServerSecret: async (name: string, sealed: string) => {
        if (!kept.has(name)) kept.set(name, sealed);
      },
    };
    // The first start of this version: the key tombstones were keyed with until now.
    const first = await keptTombstoneKeys(store, { current: KEY_A });
    expect(first).toEqual([deriveTombstoneKey(KEY_A)]);
    const sealed = kept.get('tombstone-keys')!;
    expect(sealed.startsWith(`v2.${keyIdOf(KEY_A)}.`)).toBe(true);
    expect(sealed).not.toContain(deriveTombstoneKey(KEY_A).toString('base64url'));
    // After the rotation and the re-seal (simulated), the same keys under key B only.
    expect(await keptTombstoneKeys(store, { current: KEY_B, previous: [KEY_A] })).toEqual(first);
    kept.set(
      'tombstone-keys',
      createSecretBox(KEY_B).seal(createSecretBox(KEY_A).open(kept.get('tombstone-keys')!)),
    );
    expect(await keptTombstoneKeys(store, { current: KEY_B })).toEqual(first);
    // Without the key that sealed them, nothing could find a tombstone: the error says so.
    await expect(keptTombstoneKeys(store, { current: KEY_C })).rejects.toThrow(
      `Cannot open the key of erased subscribers' tombstones: it was sealed under an encryption key this server does not have (key id ${keyIdOf(KEY_B)})`,
    );
  });

  it('upgrading in the middle of a rotation, looks tombstones up under both keys', async () => {
    const kept = new Map<string, string>();
    const store = {
      serverSecret: async (name: string) => kept.get(name),
      keepServerSecret: async (name: string, sealed: string) => void kept.set(name, sealed),
    };
    const keys = createTombstoneKeys(() =>
      keptTombstoneKeys(store, { current: KEY_B, previous: [KEY_A] }),
    );
    const underA = createTombstoneKeys(async () => [deriveTombstoneKey(KEY_A)]);
    const written = await underA.keyOf('env', 'usuario-7');
    expect(await keys.keysOf('env', 'usuario-7')).toContain(written);
    expect(await keys.keyOf('env', 'usuario-7')).not.toBe(written);
  });
});
