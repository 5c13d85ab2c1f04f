import { createSecretKey } from 'node:crypto';
import { SignJWT } from 'jose/jwt/sign';
import { decodeProtectedHeader } from 'jose/decode/protected_header';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createWidgetTokens,
  WIDGET_AUDIENCE,
  type WidgetSession,
} from '../src/modules/widget/tokens.js';
import { keyIdOf } from '../src/secret-box.js';

const SECRET = 'a-widget-secret-of-at-least-32-characters';
const session: WidgetSession = {
  _id: '0123456789abcdef01234567',
  firstName: 'Ana',
  lastName: null,
  email: null,
  organizationId: '0123456789abcdef01234568',
  environmentId: '0123456789abcdef01234569',
  subscriberId: 'ana',
};

/** A token signed by hand, to vary what `issue` always gets right. */
function signed(claims: { secret?: string; audience?: string; expiresAt?: Date }) {
  return new SignJWT({ ...session })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer('sino')
    .setAudience(claims.audience ?? WIDGET_AUDIENCE)
    .setExpirationTime(claims.expiresAt ?? '1h')
    .sign(createSecretKey(Buffer.from(claims.secret ?? SECRET, 'utf8')));
}

afterEach(() => vi.useRealTimers());

describe('widget tokens', () => {
  it('answers the session of a token it issued, as often as asked', async () => {
    const tokens = createWidgetTokens(SECRET);
    const token = await tokens.issue(session);
    expect(await tokens.verify(token)).toEqual(session);
    expect(await tokens.verify(token)).toEqual(session);
  });

  it('refuses forged, other-audience, expired and missing tokens', async () => {
    const tokens = createWidgetTokens(SECRET);
    expect(
      await tokens.verify(await signed({ secret: 'another-secret-of-32-characters-or-more' })),
    ).toBeNull();
    expect(await tokens.verify(await signed({ audience: 'subscriber' }))).toBeNull();
    expect(
      await tokens.verify(await signed({ expiresAt: new Date(Date.now() - 1000) })),
    ).toBeNull();
    for (const missing of [undefined, null, '', 'null', 'undefined', 'not.a.jwt'])
      expect(await tokens.verify(missing)).toBeNull();
  });

  it('refuses a token once it has expired, even one it verified before', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-23T12:00:00Z'));
    const tokens = createWidgetTokens(SECRET);
    const token = await signed({ expiresAt: new Date('2026-11-23T13:00:00Z') });
    expect(await tokens.verify(token)).toEqual(session);
    vi.setSystemTime(new Date('2026-11-23T12:59:59Z'));
    expect(await tokens.verify(token)).toEqual(session);
    vi.setSystemTime(new Date('2026-11-23T13:00:00Z'));
    expect(await tokens.verify(token)).toBeNull();
  });

  it('gives every call a session no caller can change for the next', async () => {
    const tokens = createWidgetTokens(SECRET);
    const token = await tokens.issue(session);
    const first = await tokens.verify(token);
    expect(() => {
      (first as { subscriberId: string }).subscriberId = 'bruno';
    }).toThrow(TypeError);
    expect((await tokens.verify(token))?.subscriberId).toBe('ana');
  });

  describe('across a rotation of the secret (decision 038)', () => {
    const NEXT = 'the-next-widget-secret-of-32-characters-or-more';

    it('names the signing secret in kid, and signs with the current one only', async () => {
      const rotating = createWidgetTokens({ current: NEXT, previous: [SECRET] });
      const token = await rotating.issue(session);
      expect(decodeProtectedHeader(token).kid).toBe(keyIdOf(NEXT));
      expect(await createWidgetTokens(NEXT).verify(token)).toEqual(session);
      expect(await createWidgetTokens(SECRET).verify(token)).toBeNull();
    });

    it('keeps sessions signed with the previous secret, with or without kid, until it goes', async () => {
      const before = await createWidgetTokens(SECRET).issue(session);
      const withoutKid = await signed({});
      const rotating = createWidgetTokens({ current: NEXT, previous: [SECRET] });
      expect(await rotating.verify(before)).toEqual(session);
      expect(await rotating.verify(withoutKid)).toEqual(session);
      const after = createWidgetTokens(NEXT);
      expect(await after.verify(before)).toBeNull();
      expect(await after.verify(withoutKid)).toBeNull();
    });

    it('refuses a token whose kid names a secret it does not have, and an expired old one', async () => {
      const rotating = createWidgetTokens({ current: NEXT, previous: [SECRET] });
      const other = 'a-third-widget-secret-of-32-characters-or-more';
      expect(await rotating.verify(await createWidgetTokens(other).issue(session))).toBeNull();
      expect(
        await rotating.verify(await signed({ expiresAt: new Date(Date.now() - 1000) })),
      ).toBeNull();
    });
  });
});
